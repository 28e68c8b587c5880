/**
 * @module scopes/redis-registry
 * A fleet's scopes, kept in the Redis the fleet shares its state in (`--state`), so a scope made
 * on one instance works on every other (each builds the scope's app on first sight): under the
 * prefix, `scopes:index` (each live id by when it was last used, on the mock's clock),
 * `scopes:id:<id>` (its purpose and key digest) and `scopes:key:<digest>` (its id). Each look
 * refreshes the use and the keys' Redis TTL; a scope unused for its TTL is ended by the next look
 * at it or the next scope made, on any instance, and its state (`scope:<id>:*`) deleted then.
 * A fleet that went quiet for longer than the TTL lets Redis expire the registry itself, and
 * nobody is left to end those scopes: a scope made later (at most once a minute per instance)
 * sweeps the state of every scope the index no longer names, so nothing under the prefix outlives
 * its scope for long.
 */
import type { KeyPurpose } from '../../api/types.js';
import type { RedisLink } from '../../state/shared/fail-over.js';
import { ScopeLimitError } from './limits.js';
import type { ScopeEntry, ScopeListed, ScopeRegistry } from './registry.js';
import { sameDigest, SCOPE_ID_PATTERN, scopeKeyDigest } from './scope-key.js';

/** Removes one scope's registry entry, from the prefix and its id (Lua, shared by the scripts). */
const LUA_REMOVE = `
local function remove(prefix, index, id)
  local hash = prefix .. 'scopes:id:' .. id
  local digest = redis.call('HGET', hash, 'digest')
  if digest then redis.call('DEL', prefix .. 'scopes:key:' .. digest) end
  redis.call('DEL', hash)
  return redis.call('ZREM', index, id)
end
`;

/** KEYS: index. ARGV: prefix, now, ttlMs, max, id, purpose, digestHex, keepMs. Answers {made (1|0), ended ids...}. */
const ADD = `${LUA_REMOVE}
local index, prefix = KEYS[1], ARGV[1]
local now, ttl, max = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local ended = redis.call('ZRANGEBYSCORE', index, '-inf', now - ttl)
for _, id in ipairs(ended) do remove(prefix, index, id) end
local made = 0
if redis.call('ZCARD', index) < max then
  local id, keep = ARGV[5], tonumber(ARGV[8])
  redis.call('HSET', prefix .. 'scopes:id:' .. id, 'purpose', ARGV[6], 'digest', ARGV[7])
  redis.call('PEXPIRE', prefix .. 'scopes:id:' .. id, keep)
  redis.call('SET', prefix .. 'scopes:key:' .. ARGV[7], id, 'PX', keep)
  redis.call('ZADD', index, now, id)
  redis.call('PEXPIRE', index, keep)
  made = 1
end
return {made, unpack(ended)}
`;

/**
 * KEYS: index. ARGV: prefix, now, ttlMs, keepMs, 'key' or 'id', the digest or id. Answers
 * {'live', id, purpose, digest}, {'ended', id} (its TTL had passed: removed now), or {}.
 */
const TOUCH = `${LUA_REMOVE}
local index, prefix = KEYS[1], ARGV[1]
local now, ttl, keep = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local id = ARGV[6]
if ARGV[5] == 'key' then
  id = redis.call('GET', prefix .. 'scopes:key:' .. ARGV[6])
  if not id then return {} end
end
local used = redis.call('ZSCORE', index, id)
if not used then return {} end
local hash = prefix .. 'scopes:id:' .. id
local fields = redis.call('HMGET', hash, 'purpose', 'digest')
if now - tonumber(used) >= ttl or not fields[1] or not fields[2] then
  remove(prefix, index, id)
  return {'ended', id}
end
redis.call('ZADD', index, now, id)
redis.call('PEXPIRE', hash, keep)
redis.call('PEXPIRE', prefix .. 'scopes:key:' .. fields[2], keep)
redis.call('PEXPIRE', index, keep)
return {'live', id, fields[1], fields[2]}
`;

/** KEYS: index. ARGV: ids. Answers the ids the index does not name (scopes that ended). */
const NOT_LIVE = `
local gone = {}
for _, id in ipairs(ARGV) do
  if not redis.call('ZSCORE', KEYS[1], id) then table.insert(gone, id) end
end
return gone
`;

/**
 * KEYS: index. ARGV: prefix, now, ttlMs, max. Answers {id, usedAt, purpose, ...} for each live
 * scope, most recently used first (read only: a listing is nobody's use).
 */
const LIST = `
local index, prefix = KEYS[1], ARGV[1]
local live = redis.call('ZREVRANGEBYSCORE', index, '+inf', '(' .. (tonumber(ARGV[2]) - tonumber(ARGV[3])), 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[4]))
local out = {}
for i = 1, #live, 2 do
  local purpose = redis.call('HGET', prefix .. 'scopes:id:' .. live[i], 'purpose')
  if purpose then
    table.insert(out, live[i])
    table.insert(out, live[i + 1])
    table.insert(out, purpose)
  end
end
return out
`;

/** How often one instance looks for the state of scopes nobody ended (milliseconds). */
const ORPHAN_SWEEP_EVERY_MS = 60_000;
/** Ids asked about in one script call. */
const IDS_PER_CALL = 500;

/** KEYS: index. ARGV: prefix, id. Answers 1 when there was such a scope. */
const REMOVE = `${LUA_REMOVE}
return remove(ARGV[1], KEYS[1], ARGV[2])
`;

interface Scripts {
  scopeAdd(...args: string[]): Promise<(number | string)[]>;
  scopeTouch(...args: string[]): Promise<string[]>;
  scopeRemove(...args: string[]): Promise<number>;
  scopesNotLive(...args: string[]): Promise<string[]>;
  scopesList(...args: string[]): Promise<string[]>;
}

/** Glob characters in a prefix, escaped for SCAN's MATCH. */
const globSafe = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');

export class RedisScopeRegistry implements ScopeRegistry {
  readonly #redis: Scripts & { unlink(...keys: string[]): Promise<number> };
  readonly #prefix: string;
  readonly #index: string;
  readonly #listeners: ((id: string) => Promise<void> | void)[] = [];
  #sweptAt = -Infinity;

  constructor(
    private readonly link: RedisLink,
    readonly ttlSeconds: number,
    readonly max: number,
    private readonly now: () => number,
  ) {
    this.#redis = link.define<Scripts>({
      scopeAdd: { numberOfKeys: 1, lua: ADD },
      scopeTouch: { numberOfKeys: 1, lua: TOUCH },
      scopeRemove: { numberOfKeys: 1, lua: REMOVE },
      scopesNotLive: { numberOfKeys: 1, lua: NOT_LIVE },
      scopesList: { numberOfKeys: 1, lua: LIST },
    });
    this.#prefix = link.options.prefix;
    this.#index = `${this.#prefix}scopes:index`;
  }

  /** The prefix of a scope's state (its stores'): `<prefix>scope:<id>:`. */
  stateOf(id: string): string {
    return `${this.#prefix}scope:${id}:`;
  }

  /** How long Redis keeps a registry key unused: the TTL and a minute, in real time (the TTL is on the mock's clock). */
  get #keepMs(): string {
    return String(this.ttlSeconds * 1000 + 60_000);
  }

  async add(entry: ScopeEntry): Promise<void> {
    const [made, ...ended] = await this.#redis.scopeAdd(
      this.#index,
      this.#prefix,
      String(this.now()),
      String(this.ttlSeconds * 1000),
      String(this.max),
      entry.id,
      entry.purpose,
      entry.digest.toString('hex'),
      this.#keepMs,
    );
    for (const id of ended) await this.#ended(String(id));
    if (Number(made) !== 1) throw new ScopeLimitError(this.max, this.ttlSeconds);
    await this.#sweepOrphans();
  }

  /** Deletes the state of scopes the index no longer names (see the module), once a minute at most. */
  async #sweepOrphans(): Promise<void> {
    const now = this.now();
    if (now - this.#sweptAt < ORPHAN_SWEEP_EVERY_MS) return;
    this.#sweptAt = now;
    const statePrefix = `${this.#prefix}scope:`;
    const ids = new Set<string>();
    for (const key of await this.link.scan(`${globSafe(statePrefix)}*`)) {
      const id = key.slice(statePrefix.length).split(':', 1)[0];
      if (id) ids.add(id);
    }
    const all = [...ids];
    for (let start = 0; start < all.length; start += IDS_PER_CALL) {
      const gone = await this.#redis.scopesNotLive(
        this.#index,
        ...all.slice(start, start + IDS_PER_CALL),
      );
      for (const id of gone) await this.#ended(String(id));
    }
  }

  async byKey(secret: string): Promise<ScopeEntry | undefined> {
    const presented = scopeKeyDigest(secret);
    const entry = await this.#touch('key', presented.toString('hex'));
    return entry && sameDigest(entry.digest, presented) ? entry : undefined;
  }

  byId(id: string): Promise<ScopeEntry | undefined> {
    return this.#touch('id', id);
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.#redis.scopeRemove(this.#index, this.#prefix, id);
    await this.#ended(id);
    return removed === 1;
  }

  /** Read back from Redis as input: an entry whose id or time is not of the mock's making is left out. */
  async list(): Promise<ScopeListed[]> {
    const flat = await this.#redis.scopesList(
      this.#index,
      this.#prefix,
      String(this.now()),
      String(this.ttlSeconds * 1000),
      String(this.max),
    );
    const listed: ScopeListed[] = [];
    for (let i = 0; i + 2 < flat.length; i += 3) {
      const [id, usedAt, purpose] = [String(flat[i]), Number(flat[i + 1]), String(flat[i + 2])];
      if (SCOPE_ID_PATTERN.test(id) && Number.isFinite(usedAt))
        listed.push({ id, purpose, usedAt });
    }
    return listed;
  }

  onEnd(listener: (id: string) => Promise<void> | void): void {
    this.#listeners.push(listener);
  }

  async #touch(mode: 'key' | 'id', value: string): Promise<ScopeEntry | undefined> {
    const answer = await this.#redis.scopeTouch(
      this.#index,
      this.#prefix,
      String(this.now()),
      String(this.ttlSeconds * 1000),
      this.#keepMs,
      mode,
      value,
    );
    if (answer[0] === 'ended') await this.#ended(answer[1]);
    if (answer[0] !== 'live') return undefined;
    return {
      id: answer[1],
      purpose: answer[2] as KeyPurpose,
      digest: Buffer.from(answer[3], 'hex'),
    };
  }

  /** A scope ended (here, or found ended): its state's keys deleted, this instance's app freed. */
  async #ended(id: string): Promise<void> {
    // The app first: closing it sends what it still held, which the deletion then takes too.
    for (const listener of this.#listeners) await listener(id);
    const keys = await this.link.scan(`${globSafe(this.stateOf(id))}*`);
    if (keys.length > 0) await this.#redis.unlink(...keys);
  }
}
