/**
 * @module middleware/rate-limit
 * Counts each authenticated request against its key's tier; answers 429 with `retry_after` and a
 * matching `Retry-After` when a limit is reached; puts `x-ratelimit-limit`/`-remaining` on what
 * it lets through. The request holds its concurrent-connection slot until the delivery step says
 * its response was fully written or its connection closed, and is charged the body bytes actually
 * written (none for a HEAD, half for a cut body, what got out before a client went away).
 */
import type { Context, Next } from 'hono';
import type { Step } from '../chain.js';
import type { AppEnv } from '../env.js';
import { tooManyRequests } from '../errors.js';
import type { RateLimiter } from '../rate-limiter.js';

export function rateLimit(options: { limiter: RateLimiter }) {
  if (!options.limiter) throw new Error('rateLimit: limiter is required');
  const { limiter } = options;
  return function limitRate(c: Context<AppEnv>, next: Next) {
    const key = c.get('key');
    const admission = limiter.admit(key.name, key.tier);
    if (!admission.ok) {
      throw tooManyRequests(admission.kind, admission.retryAfterSeconds, {
        'x-ratelimit-limit': String(admission.limit),
        'x-ratelimit-remaining': '0',
      });
    }
    // Put on the answer by whoever builds it (a plain object: see src/server/response.ts).
    c.set('rateLimitHeaders', {
      'x-ratelimit-limit': String(admission.limit),
      'x-ratelimit-remaining': String(admission.remaining),
    });
    c.set('slot', admission.slot);
    return next();
  } satisfies Step;
}
