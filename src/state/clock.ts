/**
 * @module clock
 * Time is passed in, never read deep inside: rate limits and faults take a `Clock` so tests can
 * drive them without sleeping, and QA can move the rate-limit clock forward from an admin call
 * (never more than MAX_CLOCK_OFFSET_SECONDS ahead in all, so every date stays printable).
 */

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that runs with its base but can be moved forward (never back) by a fixed offset. */
export class AdjustableClock implements Clock {
  #offsetMs = 0;
  constructor(private readonly base: Clock = systemClock) {}
  now(): number {
    return this.base.now() + this.#offsetMs;
  }
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('a clock only moves forward');
    if (this.#offsetMs + ms > MAX_CLOCK_OFFSET_SECONDS * 1000)
      throw new RangeError(`the clock offset is bounded at ${MAX_CLOCK_OFFSET_SECONDS} s`);
    this.#offsetMs += ms;
  }
  /** Takes a shared offset (another instance advanced the clock); the clock still never goes back. */
  follow(offsetMs: number): void {
    if (offsetMs > this.#offsetMs)
      this.#offsetMs = Math.min(offsetMs, MAX_CLOCK_OFFSET_SECONDS * 1000);
  }
  get offsetMs(): number {
    return this.#offsetMs;
  }
  /** Back to the base clock: the QA reset between tests, which clears the rate-limit windows with it. */
  reset(): void {
    this.#offsetMs = 0;
  }
}

/** A clock tests set by hand. */
export class ManualClock implements Clock {
  constructor(private ms = Date.UTC(2026, 10, 23)) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Longest the QA clock may be moved ahead of its base, in all (ten years of 366 days). */
export const MAX_CLOCK_OFFSET_SECONDS = 10 * 366 * 24 * 3600;
