/**
 * @module pipeline/rate-limit
 * Counts each authenticated request against its key's tier; answers 429 with `retry_after` and a
 * matching `Retry-After` when a limit is reached; puts `x-ratelimit-limit`/`-remaining` on what
 * it lets through. The request holds its concurrent-connection slot until the delivery step says
 * its response was fully written or its connection closed, and is charged the body bytes actually
 * written (none for a HEAD, half for a cut body, what got out before a client went away).
 * The decision is the state store's (src/state/): at once in memory, one Redis script when
 * shared; a shared store that was away answers from local state and the response says so
 * (`x-mock-state: local`).
 */
import type { Context, Next } from 'hono';
import type { Step } from './chain.js';
import type { AppEnv } from '../env.js';
import { tooManyRequests } from '../errors.js';
import type { Admission, LimitsStore } from '../../state/limits/store.js';

/** On a response decided on this instance's own state because the shared store was unreachable. */
export const STATE_HEADER = 'x-mock-state';

function apply(c: Context<AppEnv>, next: Next, admission: Admission) {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(admission.limit),
    'x-ratelimit-remaining': admission.ok ? String(admission.remaining) : '0',
  };
  if (admission.local) headers[STATE_HEADER] = 'local';
  if (!admission.ok) throw tooManyRequests(admission.kind, admission.retryAfterSeconds, headers);
  // Put on the answer by whoever builds it (a plain object: see src/server/response.ts).
  c.set('rateLimitHeaders', headers);
  c.set('slot', admission.slot);
  return next();
}

export function rateLimit(options: { store: Pick<LimitsStore, 'admit'> }) {
  if (!options.store) throw new Error('rateLimit: store is required');
  const { store } = options;
  return function limitRate(c: Context<AppEnv>, next: Next) {
    const key = c.get('key');
    const admission = store.admit(key.name, key.tier);
    // In memory the answer is at hand: no promise on the hot path.
    if (admission instanceof Promise) return admission.then((a) => apply(c, next, a));
    return apply(c, next, admission);
  } satisfies Step;
}
