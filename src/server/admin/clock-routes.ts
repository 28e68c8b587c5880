/**
 * @module admin/clock-routes
 * `POST /__mock/clock/advance`: moves the rate-limit clock forward by `seconds` (at most
 * MAX_CLOCK_ADVANCE_SECONDS at once, MAX_CLOCK_OFFSET_SECONDS in all); answers the total offset.
 */
import type { Hono } from 'hono';
import { MAX_CLOCK_OFFSET_SECONDS } from '../../state/clock/clock.js';
import type { Stores } from '../../state/stores.js';
import { apiError } from '../errors.js';
import type { BodyOf } from './control-body.js';

const MAX_CLOCK_ADVANCE_SECONDS = 366 * 24 * 3600;

export function clockRoutes(admin: Hono, store: Stores, bodyOf: BodyOf): void {
  admin.post('/clock/advance', async (c) => {
    const { seconds } = await bodyOf(c);
    const badSeconds = (error: string, rule: string) =>
      apiError(400, error, {
        details: [
          { in: 'body', name: '/seconds', rule, message: error, received: seconds ?? null },
        ],
      });
    if (typeof seconds !== 'number' || !(seconds >= 0) || seconds > MAX_CLOCK_ADVANCE_SECONDS)
      throw badSeconds(
        `seconds must be a number from 0 to ${MAX_CLOCK_ADVANCE_SECONDS}`,
        'number >= 0',
      );
    // Bounded in all, so every date the mock prints stays a valid date (unbounded, 300,000
    // advances of a year made /__mock/requests answer 500: "Invalid time value").
    const offsetSeconds = (await store.clock.offsetMs()) / 1000;
    if (offsetSeconds + seconds > MAX_CLOCK_OFFSET_SECONDS)
      throw badSeconds(
        `seconds: advancing by ${seconds} would put the clock ${offsetSeconds + seconds} s ahead; the bound is ${MAX_CLOCK_OFFSET_SECONDS} s (ten years) in all, ${MAX_CLOCK_OFFSET_SECONDS - offsetSeconds} s left (restart the mock to start again)`,
        `clock offset <= ${MAX_CLOCK_OFFSET_SECONDS} s`,
      );
    return c.json({ clockOffsetSeconds: (await store.clock.advance(seconds * 1000)) / 1000 });
  });
}
