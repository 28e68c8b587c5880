/**
 * @module state/redis
 * The shared store: several mock instances (replicas behind a balancer, `--workers`) keep their
 * rate-limit windows, slots, armed faults, journal and QA clock in one Redis, each read-then-change
 * decision one Lua script (redis-scripts.ts). The admits, slot releases and journal entries of one
 * turn of the event loop go in one call, in the order they came (redis-batch.ts). A slot is a
 * lease that this instance renews while the request lives, so a crashed instance's slots free
 * themselves when their leases end.
 *
 * Redis away must never take a test environment down: every command is bounded (a short command
 * timeout, no offline queue), and while Redis is unreachable the instance answers from its own
 * in-memory state (said once in the log, and on each such response as `x-mock-state: local`),
 * reconnecting with back-off and going back to the shared state once Redis answers again.
 *
 * Spoiled data is not an outage: a key of the wrong type under the prefix, or `nan`, `inf` or
 * text where a count belongs, is repaired by the script that meets it (deleted, or read as
 * absent; a turn's script stops before any write, and this instance repairs the turn's keys and
 * sends it again) or, outside the scripts, ignored; either way counted (`repaired`, at /__mock/config)
 * and logged once, and the instance stays on shared state. What reaches a client (the rate-limit
 * headers, `retry_after`) is a non-negative integer whatever Redis holds.
 */
import { matches, type MatchFacts } from './stubs/match.js';
import { MAX_STUBS, StubLimitError, type Stub } from './stubs/stubs.js';
import * as stubLua from './stubs/scripts.js';
import { readJournalEntry, SHAPE_READERS, type EntryReaders } from './shared/entry-readers.js';
import type { Redis } from 'ioredis';
import { openRedis, probeRedis as probeConnection, redactUrl } from './shared/connection.js';
import type { AdjustableClock } from './clock/clock.js';
import type { JournalEntry } from './store.js';
import {
  ActionError,
  MAX_ARMED_FAULTS,
  faultHits,
  newArmedFault,
  tooManyArmed,
  type ArmedFault,
  type FaultAction,
  type FaultMatch,
  type RequestFacts,
} from './faults/faults.js';
import type { LimitKind } from './limits/rate-limiter.js';
import type { Tier } from './limits/rate-limiter.js';
import type { MemoryStore } from './memory.js';
import * as lua from './shared/scripts.js';
import { readReply, TurnQueue, type Turn, type WaitingAdmit } from './shared/turn.js';
import { RedisRecordLog } from './records/redis.js';
import { keysOf, turnKeys, type KeyKind } from './shared/keys.js';
import type { RecordLog } from './records/records.js';
import {
  journalLine,
  StoreUnavailableError,
  type Admission,
  type JournalLine,
  type LimitUsage,
  type SlotHandle,
  type StateStore,
} from './store.js';

export interface RedisStoreOptions {
  /** Prepended to every key, so several mocks (or teams) can share one Redis. */
  prefix: string;
  /** This instance in the journal and in its lease ids. */
  instanceId: string;
  /** A slot's lease: renewed every third of it while the request lives; a crashed instance's slots end with it. */
  leaseMs: number;
  /** Longest a Redis command may take before this instance answers from local state. */
  commandTimeoutMs: number;
  /** Longest wait between reconnection attempts. */
  reconnectMaxMs: number;
  /** How long armed faults and the journal are kept after their last change. */
  keepMs: number;
  log: (line: string) => void;
}

/** Checks that Redis at `url` answers (the cluster primary, before it starts workers). */
export const probeRedis = (url: string) =>
  probeConnection(url, REDIS_STORE_DEFAULTS.commandTimeoutMs);

export { redactUrl, StateUnreachableError } from './shared/connection.js';

/** What an untimed stub has left in Redis (the take script counts down; nobody sends this many). */
const UNTIMED = 2 ** 50;

export const REDIS_STORE_DEFAULTS = {
  prefix: 'web-data-mock:',
  leaseMs: 15_000,
  commandTimeoutMs: 1000,
  reconnectMaxMs: 5_000,
  keepMs: 24 * 3600 * 1000,
} as const;

const KINDS: readonly LimitKind[] = [
  'requests per minute',
  'requests per hour',
  'data transfer',
  'concurrent connections',
];

interface Scripted {
  turn(keyCount: number, ...args: (string | number)[]): Promise<(number | string)[]>;
  renew(...args: (string | number)[]): Promise<number>;
  takeFault(...args: string[]): Promise<[string | null, number, number]>;
  arm(...args: (string | number)[]): Promise<number>;
  disarm(...args: string[]): Promise<number>;
  listFaults(...args: string[]): Promise<string[]>;
  claim(...args: string[]): Promise<number>;
  addStub(...args: (string | number)[]): Promise<number>;
  removeStubs(...args: string[]): Promise<number>;
  takeStub(...args: string[]): Promise<[number, number, number]>;
}

const SCRIPTS: Record<keyof Scripted, { numberOfKeys?: number; lua: string }> = {
  // Its key count varies with the turn: passed first.
  turn: { lua: lua.TURN },
  renew: { numberOfKeys: 1, lua: lua.RENEW },
  takeFault: { numberOfKeys: 3, lua: lua.TAKE_FAULT },
  arm: { numberOfKeys: 4, lua: lua.ARM },
  disarm: { numberOfKeys: 3, lua: lua.DISARM },
  listFaults: { numberOfKeys: 3, lua: lua.LIST_FAULTS },
  claim: { numberOfKeys: 1, lua: lua.CLAIM },
  addStub: { numberOfKeys: 7, lua: stubLua.ADD_STUB },
  removeStubs: { numberOfKeys: 5, lua: stubLua.REMOVE_STUBS },
  takeStub: { numberOfKeys: 5, lua: stubLua.TAKE_STUB },
};

/** Errors of the caller's asking (too many kept, the store away for an add), never an outage. */
const isRefusal = (error: unknown) =>
  error instanceof ActionError ||
  error instanceof StubLimitError ||
  error instanceof StoreUnavailableError;

/** Most stub verdicts remembered by id (a verdict is dropped when its entry's text changes). */
const MAX_STUB_VERDICTS = 2 * MAX_STUBS;

/**
 * A reply that says the data is spoiled (a wrong type, text where a number belongs, a script
 * tripping over either), not that Redis is away: repaired or ignored, never an outage.
 */
function isSpoiledData(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  if (!(error instanceof Error) || error.name !== 'ReplyError') return false;
  return /WRONGTYPE|not an integer|not a valid float|user_script|Error running script/i.test(
    error.message,
  );
}

/** A number as a client may see it: an integer >= 0 (NaN and negatives are 0). */
function wholeNumber(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : n === Infinity ? Number.MAX_SAFE_INTEGER : 0;
}

export class RedisStore implements StateStore {
  readonly description: string;
  readonly #redis: Redis & Scripted;
  readonly #local: MemoryStore;
  readonly #tiers: ReadonlyMap<string, Tier>;
  readonly #clock: AdjustableClock;
  readonly #o: RedisStoreOptions;
  readonly #k: ReturnType<typeof keysOf>;
  /** Live leases of this instance: lease number -> key name (renewed by the heartbeat). */
  readonly #leases = new Map<number, string>();
  /** A lease's id in Redis is this and its number. */
  readonly #leasePrefix: string;
  readonly #heartbeat: NodeJS.Timeout;
  #up = true;
  #armedSeen = 0;
  #stubsSeen = 0;
  /** The stubs version the newest turn read: a request's own turn read it after the request came. */
  #stubsVersionSeen: string | undefined;
  /** This turn of the event loop's admits, releases and journal entries: one script call. */
  readonly #turns = new TurnQueue<Admission>((turn) => this.#send(turn));
  #closed = false;
  #repaired = 0;
  /** The record-edit version the newest turn read (redis-records.ts's TurnVersions). */
  #recordsVersion: string | undefined;
  /** Turn calls sent so far; those up to #recordsForgotten went out before this log's own last change. */
  #turnsSent = 0;
  #recordsForgotten = 0;
  #readers: EntryReaders = SHAPE_READERS;
  /** Each operation's stubs, oldest first, as read at a stubs version (redis-stub-scripts.ts). */
  readonly #stubsByOperation = new Map<string, { version: string; stubs: Stub[] }>();
  /** Each stub read, by id: the text read and its verdict (a stub is judged once, not per request). */
  readonly #stubVerdicts = new Map<string, { raw: string; stub: Stub | undefined }>();

  private constructor(
    redis: Redis,
    url: string,
    parts: { local: MemoryStore; tiers: ReadonlyMap<string, Tier>; clock: AdjustableClock },
    options: RedisStoreOptions,
  ) {
    this.#redis = redis as Redis & Scripted;
    for (const [name, def] of Object.entries(SCRIPTS)) redis.defineCommand(name, def);
    this.description = redactUrl(url);
    this.#local = parts.local;
    this.#tiers = parts.tiers;
    this.#clock = parts.clock;
    this.#o = options;
    this.#leasePrefix = `${options.instanceId}:`;
    this.#k = keysOf(options.prefix);
    redis.on('ready', () => {
      if (this.#up) return;
      this.#up = true;
      options.log(`[mock] state store ${this.description} reachable again: back to shared state`);
    });
    redis.on('error', (error: Error) => this.#down(error));
    redis.on('close', () => this.#down(new Error('connection closed')));
    this.#heartbeat = setInterval(() => this.#renew(), Math.max(50, options.leaseMs / 3));
    this.#heartbeat.unref();
  }

  /** Connects (bounded) and checks Redis answers; a failure is a StateUnreachableError naming the redacted URL. */
  static async connect(
    url: string,
    parts: { local: MemoryStore; tiers: ReadonlyMap<string, Tier>; clock: AdjustableClock },
    partial: Partial<RedisStoreOptions> & { instanceId: string },
  ): Promise<RedisStore> {
    const options: RedisStoreOptions = {
      ...REDIS_STORE_DEFAULTS,
      log: (line) => console.error(line),
      ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)),
    } as RedisStoreOptions;
    return new RedisStore(await openRedis(url, options), url, parts, options);
  }

  get journalCapacity(): number {
    return this.#local.journalCapacity;
  }

  readEntriesWith(readers: EntryReaders): void {
    this.#readers = readers;
    this.#stubVerdicts.clear();
    this.#stubsByOperation.clear();
  }

  noteSpoiled(n: number, what: string): void {
    this.#noteRepairs(n, what);
  }

  /** The record-edit log on this store's connection, its version read by each turn. */
  recordLog(): RecordLog {
    return new RedisRecordLog(this.#redis, this.#o.prefix, {
      latest: () => (this.#up ? this.#recordsVersion : undefined),
      forget: () => {
        this.#recordsVersion = undefined;
        this.#recordsForgotten = this.#turnsSent;
      },
    });
  }

  /** True while Redis is away and this instance decides on its own state. */
  get local(): boolean {
    return !this.#up;
  }

  /** Spoiled entries under the prefix this instance repaired or ignored. */
  get repaired(): number {
    return this.#repaired;
  }

  #noteRepairs(n: number, what: string): void {
    if (!(n > 0)) return;
    if (this.#repaired === 0)
      this.#o.log(
        `[mock] state store ${this.description}: repaired spoiled data under the prefix (${what}); ` +
          'still on shared state; further repairs are counted at /__mock/config (state.repaired)',
      );
    this.#repaired += n;
  }

  /** A failed background command: spoiled data is counted, anything else means Redis is away. */
  #failed(error: unknown): void {
    if (isSpoiledData(error)) this.#noteRepairs(1, (error as Error).message);
    else this.#down(error);
  }

  #down(error: unknown): void {
    if (this.#closed || !this.#up) return;
    this.#up = false;
    this.#recordsVersion = undefined;
    this.#stubsVersionSeen = undefined;
    this.#o.log(
      `[mock] state store ${this.description} unreachable (${(error as Error).message}): ` +
        'serving with local state and reconnecting',
    );
    // A command that timed out on an open connection: reconnect, so 'ready' tells us when it is back.
    if (this.#redis.status === 'ready') this.#redis.disconnect(true);
  }

  /**
   * `op` against Redis, or `fallback` (local state) when Redis is away or fails. Spoiled data in
   * `owned` (keys and what they must hold) is repaired and `op` tried once more; spoiled data that
   * remains makes this one call answer from `fallback`, without leaving shared state.
   */
  async #shared<T>(
    op: () => Promise<T>,
    fallback: () => T | Promise<T>,
    owned: readonly (readonly [string, KeyKind])[] = [],
  ): Promise<T> {
    if (!this.#up) return fallback();
    try {
      return await op();
    } catch (error) {
      // The caller's mistake (too many kept), not the store's.
      if (isRefusal(error)) throw error;
      if (!isSpoiledData(error)) {
        this.#down(error);
        return fallback();
      }
      try {
        let repairs = 0;
        for (const [key, kind] of owned) repairs += await this.#redis.claim(key, kind);
        this.#noteRepairs(Math.max(1, repairs), (error as Error).message);
        if (repairs > 0) return await op();
      } catch (again) {
        if (!isSpoiledData(again)) this.#down(again);
      }
      return fallback();
    }
  }

  admit(keyName: string, tierName: string): Admission | Promise<Admission> {
    if (!this.#up) return { ...this.#local.admit(keyName, tierName), local: true };
    const tier = this.#tiers.get(tierName);
    if (!tier) throw new Error(`unknown tier ${tierName}`);
    const baseNow = this.#clock.now() - this.#clock.offsetMs;
    return this.#turns.open().admit(keyName, tierName, tier, baseNow);
  }

  /** Called once per slot (LeasedSlot guards it). */
  giveBack(keyName: string, lease: number, bytes: number): void {
    this.#leases.delete(lease);
    if (!this.#up) return; // the lease runs out on its own; the bytes are not charged
    this.#turns.open().release(keyName, lease, bytes);
  }

  record(entry: JournalEntry): void {
    if (!this.#up) return this.#local.record(entry);
    this.#turns.open().record(entry);
  }

  /**
   * One turn's call. Redis away: its admits are decided here (`local`), its entries journaled
   * here, its releases left to their leases. Spoiled data: the turn's keys repaired and the turn
   * sent once more (the script changes nothing before it has read every key it writes).
   */
  #send(turn: Turn<Admission>): Promise<void> {
    const { keys, owned } = turnKeys(this.#k, turn.keyNames);
    const argv = turn.argv({
      leaseMs: this.#o.leaseMs,
      journalCapacity: this.journalCapacity,
      keepMs: this.#o.keepMs,
      leasePrefix: this.#leasePrefix,
    });
    return this.#shared(
      async () => {
        const sent = ++this.#turnsSent;
        const reply = await this.#redis.turn(keys.length, ...keys, ...argv);
        this.#settle(turn, reply, sent);
      },
      () => {
        for (const a of turn.admits)
          a.answer({ ...this.#local.admit(a.keyName, a.tierName), local: true });
        for (const entry of turn.entries) this.#local.record(entry);
      },
      owned,
    );
  }

  #settle(turn: Turn<Admission>, reply: (number | string)[], sent: number): void {
    const { news, codes } = readReply(reply);
    if (sent > this.#recordsForgotten) this.#recordsVersion = news.records;
    this.#noteRepairs(news.repaired, 'limits, slots or the journal');
    this.#clock.follow(wholeNumber(news.offset));
    this.#armedSeen = news.armed;
    this.#stubsSeen = wholeNumber(news.stubs);
    this.#stubsVersionSeen = news.stubsVersion;
    turn.admits.forEach((a, i) => a.answer(this.#admission(a, codes[2 * i], codes[2 * i + 1])));
  }

  #admission(a: WaitingAdmit<Admission>, code: number, value: number): Admission {
    const { tier } = a;
    if (code > 0) {
      this.#leases.set(a.lease, a.keyName);
      return {
        ok: true,
        limit: code === 2 ? tier.requestsPerHour : tier.requestsPerMinute,
        remaining: wholeNumber(value),
        slot: new LeasedSlot(this, a.keyName, a.lease),
      };
    }
    const kind = KINDS[-code - 1];
    // As the in-memory limiter: a refusal announces the request limit of the window that refused.
    const limit = kind === 'requests per hour' ? tier.requestsPerHour : tier.requestsPerMinute;
    return { ok: false, kind, retryAfterSeconds: Math.max(1, wholeNumber(value)), limit };
  }

  #renew(): void {
    if (!this.#up || this.#leases.size === 0) return;
    const byKey = new Map<string, string[]>();
    for (const [lease, key] of this.#leases)
      byKey.set(key, [...(byKey.get(key) ?? []), this.#leasePrefix + lease]);
    for (const [key, ids] of byKey)
      this.#redis
        .renew(this.#k.slots(key), this.#o.leaseMs, ...ids)
        .then((repairs) => this.#noteRepairs(repairs, `slots of ${key}`))
        .catch((error: unknown) => this.#failed(error));
  }

  async resetLimits(keyName?: string): Promise<void> {
    await this.#local.resetLimits(keyName);
    await this.#shared(
      async () => {
        const keys =
          keyName === undefined
            ? [...(await this.#scan(this.#k.allWindows)), ...(await this.#scan(this.#k.allSlots))]
            : [this.#k.windows(keyName), this.#k.slots(keyName)];
        if (keys.length > 0) await this.#redis.del(...keys);
      },
      () => undefined,
    );
  }

  async limits(): Promise<Record<string, LimitUsage>> {
    return this.#shared(
      async () => {
        const out: Record<string, LimitUsage> = {};
        const prefix = this.#k.windows('');
        for (const hashKey of await this.#scan(this.#k.allWindows)) {
          const name = hashKey.slice(prefix.length);
          try {
            const [mu, hu, tu] = await this.#redis.hmget(hashKey, 'mu', 'hu', 'tu');
            const slots = this.#k.slots(name);
            const inFlight = await this.#redis.zcount(slots, `(${Date.now()}`, '+inf');
            Object.defineProperty(out, name, {
              enumerable: true,
              value: {
                minute: wholeNumber(Number(mu)),
                hour: wholeNumber(Number(hu)),
                bytes: wholeNumber(Number(tu)),
                inFlight,
              },
            });
          } catch (error) {
            // A key of the wrong type under the prefix: left out of the list (the next admit repairs it).
            if (!isSpoiledData(error)) throw error;
            this.#noteRepairs(1, `limits of ${name}`);
          }
        }
        return out;
      },
      () => this.#local.limits(),
    );
  }

  async #scan(pattern: string): Promise<string[]> {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await this.#redis.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  }

  mayHaveArmed(): boolean {
    // Redis away: only this instance's own armed faults count.
    return this.#up ? this.#armedSeen > 0 : this.#local.mayHaveArmed();
  }

  /**
   * The oldest armed fault that hits the request, chosen here with the one matcher, its count
   * taken in Redis atomically; when another instance took its last count first, the next one.
   */
  takeFault(request: RequestFacts): Promise<FaultAction | undefined> {
    return this.#shared(
      async () => {
        for (const fault of await this.armed()) {
          if (!faultHits(fault, request)) continue;
          const [raw, left, repairs] = await this.#redis.takeFault(...this.#faultKeys(), fault.id);
          this.#armedSeen = left;
          this.#noteRepairs(repairs, 'armed faults');
          if (raw !== null) return fault.action;
        }
        return undefined;
      },
      () => this.#local.takeFault(request),
    );
  }

  /** Arms a fault in Redis; Redis away, it is refused (StoreUnavailableError), not armed here. */
  async arm(match: FaultMatch, count: number, action: FaultAction): Promise<ArmedFault> {
    const fault = newArmedFault(match, count, action);
    return this.#shared(
      async () => {
        const { remaining, ...kept } = fault;
        const added = await this.#redis.arm(
          ...this.#faultKeys(),
          this.#k.faultSequence,
          fault.id,
          JSON.stringify(kept),
          remaining,
          MAX_ARMED_FAULTS,
          this.#o.keepMs,
        );
        if (added !== 1) throw tooManyArmed();
        this.#armedSeen += 1;
        return fault;
      },
      () => {
        throw new StoreUnavailableError('fault');
      },
    );
  }

  async disarm(id?: string): Promise<number> {
    const local = await this.#local.disarm(id);
    return this.#shared(
      () => this.#redis.disarm(...this.#faultKeys(), ...(id === undefined ? [] : [id])),
      () => local,
    );
  }

  /** The armed faults, each read as the admin API reads one; one it refuses is skipped and counted. */
  async armed(): Promise<ArmedFault[]> {
    return this.#shared(
      async () => {
        const out: ArmedFault[] = [];
        for (const { raw, left } of await this.#listKept(this.#faultKeys())) {
          const fault = this.#read(raw, (entry) => this.#readers.fault(entry), 'an armed fault');
          if (fault) out.push({ ...fault, remaining: left });
        }
        this.#armedSeen = out.length;
        return out;
      },
      () => this.#local.armed(),
    );
  }

  /** An entry read back: parsed and read by `reader`; one that is not JSON or is refused is counted. */
  #read<T>(raw: string, reader: (entry: unknown) => T | undefined, what: string): T | undefined {
    const entry = parsed<unknown>(raw);
    const read = entry === undefined ? undefined : reader(entry);
    if (read === undefined) this.#noteRepairs(1, `${what} that is not one (skipped)`);
    return read;
  }

  mayHaveStubs(): boolean {
    return this.#up ? this.#stubsSeen > 0 : this.#local.mayHaveStubs();
  }

  /**
   * The newest stub of the request's operation that matches, chosen here with the one matcher
   * among that operation's stubs as last read (read again only when the stubs version moved); one
   * of its `remaining` taken in Redis atomically, the next one when another instance took the last.
   * A stub without `remaining` needs no take: the version read says it is still kept.
   */
  takeStub(request: MatchFacts): Promise<Stub | undefined> {
    return this.#shared(
      async () => {
        if (request.operationId === null) return undefined;
        const stubs = await this.#stubsFor(request.operationId);
        for (let i = stubs.length - 1; i >= 0; i--) {
          const stub = stubs[i];
          if (!matches(stub.match, request)) continue;
          if (stub.remaining === undefined) return structuredClone(stub);
          const [taken, left, repairs] = await this.#redis.takeStub(
            ...this.#stubKeys(),
            this.#k.stubsOfPrefix,
            stub.id,
          );
          this.#stubsSeen = left;
          this.#noteRepairs(repairs, 'stubs');
          if (taken === 1) return structuredClone(stub);
        }
        return undefined;
      },
      () => this.#local.takeStub(request),
    );
  }

  /** One operation's stubs, oldest first: from memory while the stubs version stands. */
  async #stubsFor(operationId: string): Promise<Stub[]> {
    const cached = this.#stubsByOperation.get(operationId);
    if (cached !== undefined && cached.version === this.#stubsVersionSeen) return cached.stubs;
    const version = (await this.#redis.get(this.#k.stubVersion)) ?? '0';
    if (cached?.version === version) return cached.stubs;
    const kept = await this.#listKept([
      this.#k.stubsOf(operationId),
      this.#k.stubs,
      this.#k.stubCounts,
    ]);
    const stubs = await this.#readStubs(kept);
    this.#stubsByOperation.set(operationId, { version, stubs });
    return stubs;
  }

  /** Stubs read back, each judged once by the admin API's reader (a verdict kept by its text). */
  async #readStubs(kept: { raw: string; left: number }[]): Promise<Stub[]> {
    if (this.#stubVerdicts.size > MAX_STUB_VERDICTS) this.#stubVerdicts.clear();
    const out: Stub[] = [];
    for (const { raw, left } of kept) {
      const entry = parsed<{ id?: unknown }>(raw);
      const id = typeof entry?.id === 'string' ? entry.id : undefined;
      let verdict = id === undefined ? undefined : this.#stubVerdicts.get(id);
      if (verdict?.raw !== raw) {
        const stub = entry === undefined ? undefined : await this.#readers.stub(entry);
        verdict = { raw, stub: stub?.id === id ? stub : undefined };
        if (id !== undefined) this.#stubVerdicts.set(id, verdict);
      }
      if (verdict.stub === undefined) {
        this.#noteRepairs(1, 'a stub that is not one (skipped)');
        continue;
      }
      const stub = verdict.stub;
      out.push(stub.remaining === undefined ? stub : { ...stub, remaining: left });
    }
    return out;
  }

  /** Keeps a stub in Redis; Redis away, it is refused (StoreUnavailableError), not kept here. */
  async addStub(stub: Stub): Promise<Stub> {
    return this.#shared(
      async () => {
        const added = await this.#redis.addStub(
          ...this.#stubKeys(),
          this.#k.stubSequence,
          this.#k.stubsOf(stub.match.operationId),
          this.#k.stubsOfPrefix,
          stub.id,
          JSON.stringify(stub),
          stub.remaining ?? UNTIMED,
          MAX_STUBS,
          this.#o.keepMs,
          stub.match.operationId,
        );
        if (added !== 1) throw new StubLimitError();
        this.#stubsSeen += 1;
        return stub;
      },
      () => {
        throw new StoreUnavailableError('stub');
      },
    );
  }

  async removeStubs(id?: string): Promise<number> {
    const local = await this.#local.removeStubs(id);
    return this.#shared(
      () =>
        this.#redis.removeStubs(
          ...this.#stubKeys(),
          this.#k.stubsOfPrefix,
          ...(id === undefined ? [] : [id]),
        ),
      () => local,
    );
  }

  /** Stubs oldest first, each with what it has left (absent: until removed). */
  async stubs(): Promise<Stub[]> {
    return this.#shared(
      async () => {
        const out = await this.#readStubs(
          await this.#listKept([this.#k.stubOrder, this.#k.stubs, this.#k.stubCounts]),
        );
        this.#stubsSeen = out.length;
        return out;
      },
      () => this.#local.stubs(),
    );
  }

  /**
   * Entries kept under an order (the armed faults, all stubs, or one operation's), listed by one
   * script, oldest first, each as its text and the count it has left.
   */
  async #listKept(keys: [string, string, string]): Promise<{ raw: string; left: number }[]> {
    const flat = await this.#redis.listFaults(...keys);
    const out: { raw: string; left: number }[] = [];
    for (let i = 0; i < flat.length; i += 2)
      out.push({ raw: flat[i], left: wholeNumber(Number(flat[i + 1])) });
    return out;
  }

  /** The five keys of every stub script (redis-stub-scripts.ts). */
  #stubKeys(): [string, string, string, string, string] {
    return [
      this.#k.stubOrder,
      this.#k.stubs,
      this.#k.stubCounts,
      this.#k.stubOperationOf,
      this.#k.stubVersion,
    ];
  }

  #faultKeys(): [string, string, string] {
    return [this.#k.faultOrder, this.#k.faults, this.#k.faultCounts];
  }

  /** The newest `n` journal lines; a line that is not one the journal writes is skipped and counted. */
  async journal(n: number): Promise<JournalLine[]> {
    return this.#shared(
      async () => {
        const out: JournalLine[] = [];
        for (const raw of await this.#redis.lrange(this.#k.journal, 0, n - 1)) {
          const entry = this.#read(raw, readJournalEntry, 'a journal entry');
          if (entry) out.push(journalLine(entry));
        }
        return out;
      },
      () => this.#local.journal(n),
      [[this.#k.journal, 'list']],
    );
  }

  async journalDropped(): Promise<number> {
    return this.#shared(
      async () => wholeNumber(Number((await this.#redis.get(this.#k.journalDropped)) ?? 0)),
      () => this.#local.journalDropped(),
      [[this.#k.journalDropped, 'integer']],
    );
  }

  async clearJournal(): Promise<void> {
    await this.#local.clearJournal();
    await this.#shared(
      async () => void (await this.#redis.del(this.#k.journal, this.#k.journalDropped)),
      () => undefined,
    );
  }

  async advanceClock(ms: number): Promise<number> {
    return this.#shared(
      async () => {
        const offset = await this.#redis.incrby(this.#k.clock, Math.round(ms));
        this.#clock.follow(wholeNumber(offset));
        return this.#clock.offsetMs;
      },
      () => this.#local.advanceClock(ms),
      [[this.#k.clock, 'integer']],
    );
  }

  /**
   * Offset 0 in Redis and here. Another instance keeps the offset it follows until it restarts
   * (a clock that follows the fleet never goes back, so no window is counted twice).
   */
  async resetClock(): Promise<void> {
    this.#clock.reset();
    await this.#local.resetClock();
    return this.#shared(
      async () => {
        await this.#redis.del(this.#k.clock);
      },
      () => undefined,
    );
  }

  async clockOffsetMs(): Promise<number> {
    return this.#shared(
      async () => {
        const raw = await this.#redis.get(this.#k.clock);
        const offset = raw === null ? 0 : Number(raw);
        if (raw !== null && wholeNumber(offset) !== offset)
          this.#noteRepairs(1, 'the clock offset (read as 0)');
        this.#clock.follow(wholeNumber(offset));
        return this.#clock.offsetMs;
      },
      () => this.#local.clockOffsetMs(),
      [[this.#k.clock, 'integer']],
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    // Give back what is still held (a clean shutdown should not leave slots to their leases).
    const held = [...this.#leases];
    this.#leases.clear();
    if (this.#up) for (const [id, key] of held) this.#turns.open().release(key, id, 0);
    await this.#turns.flush();
    this.#redis.disconnect();
  }
}

/** Parsed JSON, or undefined for text that is not JSON (spoiled data under the prefix). */
function parsed<T>(raw: string): T | undefined {
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/** A slot held in Redis under a lease: given back exactly once. */
class LeasedSlot implements SlotHandle {
  #released = false;
  constructor(
    private readonly store: RedisStore,
    private readonly keyName: string,
    private readonly lease: number,
  ) {}
  release(bytesSent: number): void {
    if (this.#released) return;
    this.#released = true;
    this.store.giveBack(this.keyName, this.lease, bytesSent);
  }
}
