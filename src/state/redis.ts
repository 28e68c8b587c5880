/**
 * @module state/redis
 * The state a fleet shares: several mock instances (replicas behind a balancer, `--workers`) keep
 * their rate-limit windows, slots, armed faults, stubs, journal, QA clock and record edits in one
 * Redis, each concern in its room (limits/, faults/, stubs/, journal/, clock/, records/ redis.ts),
 * all on one link (shared/fail-over.ts: the connection, Redis away, spoiled data). The admits,
 * slot releases and journal entries of one turn of the event loop go in one call, in the order
 * they came (shared/turn.ts, turn-sender.ts), and its reply tells every concern its news. Loaded
 * only when `--state` names a Redis (ioredis with it).
 */
import type { AdjustableClock } from './clock/clock.js';
import { RedisClock } from './clock/redis.js';
import { RedisFaults } from './faults/redis.js';
import { RedisJournal } from './journal/redis.js';
import type { Tier } from './limits/rate-limiter.js';
import { RedisLimits } from './limits/redis.js';
import type { Admission } from './limits/store.js';
import type { MemoryStores } from './memory.js';
import { RedisRecords } from './records/redis.js';
import type { EntryReaders } from './shared/entry-readers.js';
import { RedisLink, type RedisStoreOptions } from './shared/fail-over.js';
import { TurnSender } from './shared/turn-sender.js';
import type { Stores } from './stores.js';
import { RedisStubs } from './stubs/redis.js';

export { probeRedis, type RedisStoreOptions } from './shared/fail-over.js';
export { redactUrl, StateUnreachableError } from './shared/connection.js';

export class RedisStores implements Stores {
  readonly limits: RedisLimits;
  readonly faults: RedisFaults;
  readonly stubs: RedisStubs;
  readonly journal: RedisJournal;
  readonly clock: RedisClock;
  readonly records: RedisRecords;
  readonly #link: RedisLink;
  readonly #turns: TurnSender<Admission>;

  private constructor(
    link: RedisLink,
    parts: { local: MemoryStores; tiers: ReadonlyMap<string, Tier>; clock: AdjustableClock },
  ) {
    const { local, tiers, clock } = parts;
    this.#link = link;
    this.#turns = new TurnSender<Admission>(link, clock, () => ({
      answer: (a, code, value) => this.limits.answer(a, code, value),
      admitHere: (a) => this.limits.admitHere(a),
      recordHere: (entry) => local.journal.record(entry),
      journalCapacity: local.journal.capacity,
    }));
    this.limits = new RedisLimits(link, this.#turns, { local: local.limits, tiers, clock });
    this.faults = new RedisFaults(link, local.faults);
    this.stubs = new RedisStubs(link, local.stubs);
    this.journal = new RedisJournal(link, this.#turns, local.journal);
    this.clock = new RedisClock(link, local.clock, clock);
    this.records = new RedisRecords(link);
  }

  /** Connects (bounded) and checks Redis answers; a failure is a StateUnreachableError naming the redacted URL. */
  static async connect(
    url: string,
    parts: { local: MemoryStores; tiers: ReadonlyMap<string, Tier>; clock: AdjustableClock },
    options: Partial<RedisStoreOptions> & { instanceId: string },
  ): Promise<RedisStores> {
    return new RedisStores(await RedisLink.connect(url, options), parts);
  }

  /**
   * Stores under `prefix` on this instance's connection (a scope's state, src/server/scopes/),
   * over the scope's own memory stores; closing them leaves the connection open.
   */
  sharing(
    prefix: string,
    parts: { local: MemoryStores; tiers: ReadonlyMap<string, Tier>; clock: AdjustableClock },
  ): RedisStores {
    return new RedisStores(this.#link.sharing(prefix), parts);
  }

  /** This instance's connection and options (a registry kept beside the state: scopes). */
  get link(): RedisLink {
    return this.#link;
  }

  get description(): string {
    return this.#link.description;
  }

  /** True while Redis is away and this instance decides on its own state. */
  get local(): boolean {
    return !this.#link.up;
  }

  /** Spoiled entries under the prefix this instance repaired or ignored. */
  get repaired(): number {
    return this.#link.repaired;
  }

  readEntriesWith(readers: EntryReaders): void {
    this.#link.readers = readers;
    this.stubs.forget();
  }

  async close(): Promise<void> {
    if (this.#link.closing()) return;
    // Give back what is still held (a clean shutdown should not leave slots to their leases).
    this.limits.stop();
    await this.#turns.flush();
    this.#link.disconnect();
  }
}
