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
import type { AppEnv } from '../env.js';

/**
 * One step of a route: Hono's middleware shape, except that a step with nothing to do after the
 * rest (auth, rate limit, validation) may be a plain function that returns `next()` or throws,
 * without the promise and the extra turn of the queue an async function costs on every request.
 * `next()` returns nothing when the rest answered at once: a step returns it or awaits it, and
 * never calls `.then` on it.
 */
export type Step = (c: Context<AppEnv>, next: Next) => Response | void | Promise<Response | void>;

export function chain(
  steps: readonly Step[],
  onError: ErrorHandler<AppEnv>,
): MiddlewareHandler<AppEnv> {
  /** A step's outcome: its Response becomes `c.res` unless a step finalized it already. */
  function settle(c: Context<AppEnv>, res: Response | void): void {
    if (res && !c.finalized) c.res = res;
  }
  /** A step's error becomes the app's error answer right there. */
  function fail(c: Context<AppEnv>, error: unknown): void | Promise<void> {
    if (!(error instanceof Error)) throw error;
    c.error = error;
    const res = onError(error, c);
    if (res instanceof Promise)
      return res.then((answer) => {
        c.res = answer;
      });
    c.res = res;
  }
  /**
   * Runs step i and those after it. Steps that answer at once run without a promise or a turn of
   * the queue (most of a request's steps: auth, rate limit, validation, the handler).
   */
  function run(c: Context<AppEnv>, i: number): void | Promise<void> {
    const step = steps[i];
    if (!step) return;
    let res: Response | void | Promise<Response | void>;
    try {
      res = step(c, (() => run(c, i + 1)) as Next);
    } catch (error) {
      return fail(c, error);
    }
    if (!(res instanceof Promise)) return settle(c, res);
    return res.then(
      (answer) => settle(c, answer),
      (error: unknown) => fail(c, error),
    );
  }
  return async function routeSteps(c) {
    await run(c, 0);
    return c.res;
  };
}
