/**
 * @module state/clock/redis
 * The QA clock's offset shared by a fleet in one Redis: every instance's clock follows it (each
 * turn tells it, shared/turn-sender.ts). Redis away: this instance's own offset.
 */
import { wholeNumber, type RedisLink } from '../shared/fail-over.js';
import type { AdjustableClock } from './clock.js';
import type { MemoryClock } from './memory.js';
import type { ClockStore } from './store.js';

export class RedisClock implements ClockStore {
  readonly #link: RedisLink;
  readonly #local: MemoryClock;
  readonly #clock: AdjustableClock;

  constructor(link: RedisLink, local: MemoryClock, clock: AdjustableClock) {
    this.#link = link;
    this.#local = local;
    this.#clock = clock;
  }

  async advance(ms: number): Promise<number> {
    const link = this.#link;
    return link.shared(
      async () => {
        const offset = await link.redis.incrby(link.keys.clock, Math.round(ms));
        this.#clock.follow(wholeNumber(offset));
        return this.#clock.offsetMs;
      },
      () => this.#local.advance(ms),
      [[link.keys.clock, 'integer']],
    );
  }

  /**
   * Offset 0 in Redis and here. Another instance keeps the offset it follows until it restarts
   * (a clock that follows the fleet never goes back, so no window is counted twice).
   */
  async reset(): Promise<void> {
    const link = this.#link;
    this.#clock.reset();
    await this.#local.reset();
    return link.shared(
      async () => {
        await link.redis.del(link.keys.clock);
      },
      () => undefined,
    );
  }

  async offsetMs(): Promise<number> {
    const link = this.#link;
    return link.shared(
      async () => {
        const raw = await link.redis.get(link.keys.clock);
        const offset = raw === null ? 0 : Number(raw);
        if (raw !== null && wholeNumber(offset) !== offset)
          link.noteRepairs(1, 'the clock offset (read as 0)');
        this.#clock.follow(wholeNumber(offset));
        return this.#clock.offsetMs;
      },
      () => this.#local.offsetMs(),
      [[link.keys.clock, 'integer']],
    );
  }
}
