/**
 * @module state/clock/clock
 * Time is passed in, never read deep inside: rate limits and faults take a `Clock`, and QA delays
 * and dribbles a `Sleep`, so tests can drive them without sleeping; QA can move the rate-limit
 * clock forward from an admin call (never more than MAX_CLOCK_OFFSET_SECONDS ahead in all, so
 * every date stays printable). Moving that clock wakes no sleep: a QA delay is the request's own.
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

/** Waits `ms` milliseconds: a QA delay, a dribbled body's tick. */
export type Sleep = (ms: number) => Promise<void>;

export const systemSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A sleep tests wake by hand: every wait is held until `advance` has passed its end. */
export class ManualSleep {
  #now = 0;
  #waits: { until: number; wake: () => void }[] = [];
  readonly sleep: Sleep = (ms) =>
    new Promise((resolve) => this.#waits.push({ until: this.#now + ms, wake: resolve }));
  /** Waits not yet over. */
  get waiting(): number {
    return this.#waits.length;
  }
  /** Moves time on by `ms`, waking every wait that ends by then. */
  advance(ms: number): void {
    this.#now += ms;
    const due = this.#waits.filter((w) => w.until <= this.#now);
    this.#waits = this.#waits.filter((w) => w.until > this.#now);
    for (const wait of due) wait.wake();
  }
}

/** Longest the QA clock may be moved ahead of its base, in all (ten years of 366 days). */
export const MAX_CLOCK_OFFSET_SECONDS = 10 * 366 * 24 * 3600;
