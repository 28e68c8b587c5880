/**
 * @module chain
 * A route's steps (bind the operation, deliver, auth, rate limit, QA scenario, validate, handle)
 * as one Hono handler. Hono's trie router builds a parameter set for every handler registered on
 * the matched path, on every request: with eight handlers per route that was the largest single
 * cost of a small answer (a profile of a part by ID: 14.6% of busy time in `match`). Registered as
 * one handler, the steps run with Hono's own rules: a step's returned Response becomes `c.res`
 * unless a step already finalized it, and an error a step throws becomes the app's error
 * response right there, so the steps around it (delivery above all) see it as `c.res`.
 */
import type { Context, ErrorHandler, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';

export function chain(steps: readonly MiddlewareHandler<AppEnv>[], onError: ErrorHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  async function run(c: Context<AppEnv>, i: number): Promise<void> {
    const step = steps[i];
    if (!step) return;
    let res: Response | void;
    let failed = false;
    try {
      res = await step(c, () => run(c, i + 1));
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      c.error = error;
      res = await onError(error, c);
      failed = true;
    }
    if (res && (!c.finalized || failed)) c.res = res;
  }
  return async function routeSteps(c) {
    await run(c, 0);
    return c.res;
  };
}
