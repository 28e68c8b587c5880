/**
 * @module state/shared/fail-over
 * The one fail-over helper every Redis store of a concern (limits/, faults/, stubs/, journal/,
 * clock/, records/ redis.ts) goes through: the connection, what this instance does when Redis is
 * away, and what it does with spoiled data.
 *
 * Redis away must never take a test environment down: every command is bounded (a short command
 * timeout, no offline queue), and while Redis is unreachable the instance answers from its own
 * in-memory state (`local`: said once in the log, and on each such response as
 * `x-mock-state: local`), reconnecting with back-off and going back to the shared state once Redis
 * answers again. A stub or fault cannot be added meanwhile (StoreUnavailableError).
 *
 * Spoiled data is not an outage: a key of the wrong type under the prefix, or `nan`, `inf` or
 * text where a count belongs, is repaired by the script that meets it (deleted, or read as
 * absent; a turn's script stops before any write, and this instance repairs the turn's keys and
 * sends it again) or, outside the scripts, ignored; either way counted (`repaired`, at
 * /__mock/config) and logged once, and the instance stays on shared state. What reaches a client
 * (the rate-limit headers, `retry_after`) is a non-negative integer whatever Redis holds.
 */
import type { Redis } from 'ioredis';
import { openRedis, probeRedis as probeConnection, redactUrl } from './connection.js';
import { keysOf, type KeyKind } from './keys.js';
import { CLAIM, LIST_KEPT } from './scripts.js';
import { SHAPE_READERS, type EntryReaders } from './entry-readers.js';

/**
 * A stub or fault that cannot be added because the shared store is away: refused (503), never
 * kept locally, where it would be dropped without a word when the store came back.
 */
import { StoreUnavailableError } from './unavailable.js';

export { StoreUnavailableError };

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

export const REDIS_STORE_DEFAULTS = {
  prefix: 'web-data-mock:',
  leaseMs: 15_000,
  commandTimeoutMs: 1000,
  reconnectMaxMs: 5_000,
  keepMs: 24 * 3600 * 1000,
} as const;

/** Checks that Redis at `url` answers (the cluster primary, before it starts workers). */
export const probeRedis = (url: string) =>
  probeConnection(url, REDIS_STORE_DEFAULTS.commandTimeoutMs);

/** Scripts a concern defines on the connection: each command's key count (absent: passed first) and Lua. */
export type ScriptDefinitions<S> = Record<keyof S, { numberOfKeys?: number; lua: string }>;

interface SharedScripts {
  claim(...args: string[]): Promise<number>;
  listKept(...args: string[]): Promise<string[]>;
}

/**
 * A reply that says the data is spoiled (a wrong type, text where a number belongs, a script
 * tripping over either), not that Redis is away: repaired or ignored, never an outage.
 */
export function isSpoiledData(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  if (!(error instanceof Error) || error.name !== 'ReplyError') return false;
  return /WRONGTYPE|not an integer|not a valid float|user_script|Error running script/i.test(
    error.message,
  );
}

/** A number as a client may see it: an integer >= 0 (NaN and negatives are 0). */
export function wholeNumber(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : n === Infinity ? Number.MAX_SAFE_INTEGER : 0;
}

/** Parsed JSON, or undefined for text that is not JSON (spoiled data under the prefix). */
export function parsed<T>(raw: string): T | undefined {
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

/** What each turn tells this instance (shared/turn.ts), and what the concerns read since. */
export interface Seen {
  /** Faults armed anywhere, as last heard. */
  armed: number;
  /** Stubs kept anywhere, as last heard. */
  stubs: number;
  /** The stubs version the newest turn read: a request's own turn read it after the request came. */
  stubsVersion: string | undefined;
  /** The record-edit version the newest turn read (records/redis.ts's TurnVersions). */
  records: string | undefined;
  /** Turn calls sent so far; those up to `recordsForgotten` went out before the log's own last change. */
  turnsSent: number;
  recordsForgotten: number;
}

/**
 * One instance's link to Redis, which every concern's Redis store shares: one connection, one
 * `local` (Redis away), one `repaired` count, one set of entry readers.
 */
export class RedisLink {
  readonly description: string;
  readonly redis: Redis & SharedScripts;
  readonly options: RedisStoreOptions;
  readonly keys: ReturnType<typeof keysOf>;
  /** The admin API's readers, which every entry read back is read with (entry-readers.ts). */
  readers: EntryReaders = SHAPE_READERS;
  readonly seen: Seen = {
    armed: 0,
    stubs: 0,
    stubsVersion: undefined,
    records: undefined,
    turnsSent: 0,
    recordsForgotten: 0,
  };
  #up = true;
  #closed = false;
  #repaired = 0;
  /** The link whose connection this one shares (a scope's: `sharing`); it owns the connection. */
  readonly #owner: RedisLink | undefined;

  private constructor(redis: Redis, url: string, options: RedisStoreOptions, owner?: RedisLink) {
    this.#owner = owner;
    this.redis = owner
      ? (redis as Redis & SharedScripts)
      : this.define<SharedScripts>(redis, {
          claim: { numberOfKeys: 1, lua: CLAIM },
          listKept: { numberOfKeys: 3, lua: LIST_KEPT },
        });
    this.description = owner ? owner.description : redactUrl(url);
    this.options = options;
    this.keys = keysOf(options.prefix);
    if (owner) return;
    redis.on('ready', () => {
      if (this.#up) return;
      this.#up = true;
      options.log(`[mock] state store ${this.description} reachable again: back to shared state`);
    });
    redis.on('error', (error: Error) => this.down(error));
    redis.on('close', () => this.down(new Error('connection closed')));
  }

  /** Connects (bounded) and checks Redis answers; a failure is a StateUnreachableError naming the redacted URL. */
  static async connect(
    url: string,
    partial: Partial<RedisStoreOptions> & { instanceId: string },
  ): Promise<RedisLink> {
    const options: RedisStoreOptions = {
      ...REDIS_STORE_DEFAULTS,
      log: (line) => console.error(line),
      ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)),
    } as RedisStoreOptions;
    return new RedisLink(await openRedis(url, options), url, options);
  }

  /**
   * A link under another prefix on this link's connection (a scope's state, src/server/scopes/):
   * Redis away is this link's news, and closing it leaves the connection open.
   */
  sharing(prefix: string): RedisLink {
    return new RedisLink(this.redis, '', { ...this.options, prefix }, this);
  }

  /** Defines a concern's scripts as commands on the connection (`redis` defaults to this link's). */
  define<S>(redis: Redis, scripts: ScriptDefinitions<S>): Redis & S;
  define<S>(scripts: ScriptDefinitions<S>): Redis & S;
  define<S>(a: Redis | ScriptDefinitions<S>, b?: ScriptDefinitions<S>): Redis & S {
    const [redis, scripts] = b === undefined ? [this.redis, a as ScriptDefinitions<S>] : [a, b];
    for (const [name, def] of Object.entries(scripts))
      (redis as Redis).defineCommand(name, def as { numberOfKeys?: number; lua: string });
    return redis as Redis & S;
  }

  /** True while Redis answers and this instance decides on the shared state. */
  get up(): boolean {
    return this.#owner ? this.#owner.up : this.#up;
  }

  /** Spoiled entries under the prefix this instance repaired or ignored. */
  get repaired(): number {
    return this.#repaired;
  }

  noteRepairs(n: number, what: string): void {
    if (!(n > 0)) return;
    if (this.#repaired === 0)
      this.options.log(
        `[mock] state store ${this.description}: repaired spoiled data under the prefix (${what}); ` +
          'still on shared state; further repairs are counted at /__mock/config (state.repaired)',
      );
    this.#repaired += n;
  }

  /** A failed background command: spoiled data is counted, anything else means Redis is away. */
  failed(error: unknown): void {
    if (isSpoiledData(error)) this.noteRepairs(1, (error as Error).message);
    else this.down(error);
  }

  down(error: unknown): void {
    if (this.#owner) {
      this.seen.records = undefined;
      this.seen.stubsVersion = undefined;
      if (!this.#closed) this.#owner.down(error);
      return;
    }
    if (this.#closed || !this.#up) return;
    this.#up = false;
    this.seen.records = undefined;
    this.seen.stubsVersion = undefined;
    this.options.log(
      `[mock] state store ${this.description} unreachable (${(error as Error).message}): ` +
        'serving with local state and reconnecting',
    );
    // A command that timed out on an open connection: reconnect, so 'ready' tells us when it is back.
    if (this.redis.status === 'ready') this.redis.disconnect(true);
  }

  /**
   * `op` against Redis, or `fallback` (local state) when Redis is away or fails. Spoiled data in
   * `owned` (keys and what they must hold) is repaired and `op` tried once more; spoiled data that
   * remains makes this one call answer from `fallback`, without leaving shared state. An error
   * `refused` says is the caller's (too many kept), not the store's: thrown as it is.
   */
  async shared<T>(
    op: () => Promise<T>,
    fallback: () => T | Promise<T>,
    owned: readonly (readonly [string, KeyKind])[] = [],
    refused: (error: unknown) => boolean = () => false,
  ): Promise<T> {
    if (!this.#up) return fallback();
    try {
      return await op();
    } catch (error) {
      if (error instanceof StoreUnavailableError || refused(error)) throw error;
      if (!isSpoiledData(error)) {
        this.down(error);
        return fallback();
      }
      try {
        let repairs = 0;
        for (const [key, kind] of owned) repairs += await this.redis.claim(key, kind);
        this.noteRepairs(Math.max(1, repairs), (error as Error).message);
        if (repairs > 0) return await op();
      } catch (again) {
        if (!isSpoiledData(again)) this.down(again);
      }
      return fallback();
    }
  }

  /** Every key that matches `pattern` (SCAN, never KEYS). */
  async scan(pattern: string): Promise<string[]> {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  }

  /**
   * Entries kept under an order (the armed faults, all stubs, or one operation's), listed by one
   * script, oldest first, each as its text and the count it has left.
   */
  async listKept(keys: [string, string, string]): Promise<{ raw: string; left: number }[]> {
    const flat = await this.redis.listKept(...keys);
    const out: { raw: string; left: number }[] = [];
    for (let i = 0; i < flat.length; i += 2)
      out.push({ raw: flat[i], left: wholeNumber(Number(flat[i + 1])) });
    return out;
  }

  /** An entry read back: parsed and read by `reader`; one that is not JSON or is refused is counted. */
  read<T>(raw: string, reader: (entry: unknown) => T | undefined, what: string): T | undefined {
    const entry = parsed<unknown>(raw);
    const read = entry === undefined ? undefined : reader(entry);
    if (read === undefined) this.noteRepairs(1, `${what} that is not one (skipped)`);
    return read;
  }

  /** From now on a lost connection is not an outage: the instance is closing. True if it already was. */
  closing(): boolean {
    const was = this.#closed;
    this.#closed = true;
    return was;
  }

  disconnect(): void {
    if (!this.#owner) this.redis.disconnect();
  }
}
