/**
 * @module net/deadline
 * A deadline for one awaited call of a command (a probe, a preflight) that holds the process open
 * while the call runs. `AbortSignal.timeout`'s timer does not: when the fetch it bounded had no
 * live socket left (a server closing under it), a command whose top-level await waited on that
 * fetch had nothing keeping Node alive, and Node ended it with exit 13 (an unsettled top-level
 * await) instead of a verdict. That is how `web-data-mock stop` once failed in CI.
 */

/**
 * Runs `call` with a signal that aborts after `ms`, with the reason `AbortSignal.timeout` gives
 * (a `DOMException` named `TimeoutError`), so callers tell a deadline from other failures the
 * same way. The timer is cleared as soon as `call` settles; the deadline covers whatever `call`
 * awaits, a body read included.
 */
export async function withDeadline<T>(
  ms: number,
  call: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new DOMException(`no answer within ${ms} ms`, 'TimeoutError')),
    ms,
  );
  try {
    return await call(abort.signal);
  } finally {
    clearTimeout(timer);
  }
}
