/**
 * @module middleware/rate-limit
 * Counts each authenticated request against its key's tier; answers 429 with `retry_after` and a
 * matching `Retry-After` when a limit is reached; puts `x-ratelimit-limit`/`-remaining` on what
 * it lets through; charges the response's bytes to the data-transfer window.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env.js';
import { tooManyRequests } from '../errors.js';
import type { RateLimiter } from '../rate-limiter.js';

export function rateLimit(options: { limiter: RateLimiter }) {
  if (!options.limiter) throw new Error('rateLimit: limiter is required');
  const { limiter } = options;
  return createMiddleware<AppEnv>(async function limitRate(c, next) {
    const key = c.get('key');
    const admission = limiter.admit(key.name, key.tier);
    if (!admission.ok) {
      throw tooManyRequests(admission.kind, admission.retryAfterSeconds, { 'x-ratelimit-limit': String(admission.limit), 'x-ratelimit-remaining': '0' });
    }
    c.header('x-ratelimit-limit', String(admission.limit));
    c.header('x-ratelimit-remaining', String(admission.remaining));
    try {
      await next();
    } finally {
      admission.release(Number(c.res.headers.get('content-length') ?? 0));
    }
  });
}
