/**
 * @module chain
 * A route's steps (bind the operation, deliver, auth, rate limit, QA scenario, validate, handle)
 * as one Hono handler. Hono's trie router builds a parameter set for every handler registered on
 * the matched path, on every request, so one handler per route keeps the router's share of a
 * request small (bench/README.md has the profiles). Registered as one handler, the steps run
 * with Hono's own rules: a step's returned Response becomes `c.res` unless a step already
 * finalized it, and an error a step throws becomes the app's error response right there, so the
 * steps around it (delivery above all) see it as `c.res`.
 */
import type { Context, ErrorHandler, MiddlewareHandler, Next } from 'hono';
import type { AppEnv } from './env.js';

/**
 * One step of a route: Hono's middleware shape, except that a step with nothing to do after the
 * rest (auth, rate limit, validation) may be a plain function that returns `next()` or throws,
 * without the promise and the extra turn of the queue an async function costs on every request.
 */
export type Step = (c: Context<AppEnv>, next: Next) => Response | void | Promise<Response | void>;

export function chain(
  steps: readonly Step[],
  onError: ErrorHandler<AppEnv>,
): MiddlewareHandler<AppEnv> {
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
