/**
 * @module state/shared/scripts
 * The Lua scripts every Redis store of a concern shares: the repairs (REPAIR, CLAIM), Redis's
 * clock, the listing of kept entries and the turn (TURN), which carries the limits' admits and
 * releases and the journal's entries and tells every concern its news. Each concern's own scripts
 * are in its room (limits/, faults/, stubs/ scripts.ts). Each decision that reads shared state and
 * then changes it runs as one script, so Redis carries it out whole, with no other instance's
 * command in between.
 * Mock time (window starts) is the instance's base clock plus the shared QA clock offset; lease
 * time is Redis's own clock (TIME), so a lease ends on schedule whatever the instances' clocks say.
 */

/**
 * Reading what another writer may have spoiled (a key of the wrong type under the prefix, `nan`,
 * `inf` or text in a window): `own` deletes a key that is not of the type the store writes there,
 * `whole` reads a count, window start or offset as a finite number >= 0 (else nil), and both add
 * to `repaired`, which the script returns last, so the instance counts the repairs and never
 * mistakes spoiled data for a Redis outage.
 */
export const REPAIR = `local repaired = 0
local function own(key, kind)
  local t = redis.call('TYPE', key).ok
  if t ~= 'none' and t ~= kind then
    redis.call('DEL', key)
    repaired = repaired + 1
  end
end
local function whole(raw)
  if raw == false or raw == nil then return nil end
  local n = tonumber(raw)
  if n == nil or n ~= n or n < 0 or n == math.huge then
    repaired = repaired + 1
    return nil
  end
  return math.floor(n)
end`;

/** Milliseconds since the epoch by Redis's clock. */
export const REDIS_NOW = `local t = redis.call('TIME')
local real = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * One turn of the event loop of one instance (state/shared/turn.ts): its admits and slot releases
 * in the order they came, then its journal entries, as one script. Each admit is decided exactly
 * as if it ran alone after the ones before it: the four kinds in the in-memory limiter's order
 * (per minute, per hour, data transfer, then concurrent connections), a slot taken with a lease.
 * A release gives its slot back and charges the body bytes to the current transfer window.
 *
 * Every key the script writes is first read by a command that fails on a key of another type, so
 * spoiled data stops it before it has changed anything: the instance repairs those keys (CLAIM)
 * and sends the same turn again. No TYPE check per request.
 *
 * KEYS: clock offset, armed-fault order, stub order, journal, record-edit version, then per key
 *       name of the turn its windows hash and its slots sorted set (lease id -> lease end).
 * ARGV: lease ms, journal cap, journal ttl ms, tier count T, journal entry count J, lease id
 *       prefix, first lease number; T tiers of 8 (per minute, minute ms, per hour, hour ms, bytes,
 *       transfer ms, connections, windows ttl ms); the ops, two or three numbers each, few
 *       arguments being what keeps a turn cheap on both sides: an admit is windows KEYS index *
 *       1024 + tier number, base now (its lease id the prefix and the next lease number); a
 *       release is minus the windows KEYS index, lease number, bytes; last the J entries' JSON,
 *       oldest first.
 * Returns {offset, armed, "stubs kept:stubs version", repaired, record-edit version, then per
 * admit code, value}:
 * code 1 admitted under the
 * minute's limit or 2 under the hour's, value what remains; code -1 to -4 refused by that kind,
 * value the retry after in seconds. So every instance learns with each turn the shared clock
 * offset, whether a fault or a stub is kept anywhere and whether the record edits changed. A window start later than now
 * (spoiled) starts the window now.
 */
export const TURN = `
${REPAIR}
local offset = whole(redis.call('GET', KEYS[1])) or 0
local armed = redis.call('ZCARD', KEYS[2])
-- The stubs kept and their version (redis-stub-scripts.ts), as "count:version".
local stubVersion = (string.gsub(KEYS[3], 'order$', 'version'))
if redis.call('TYPE', stubVersion).ok == 'string' then
  stubVersion = redis.call('GET', stubVersion)
else
  stubVersion = '0'
end
local stubs = redis.call('ZCARD', KEYS[3]) .. ':' .. stubVersion
local records = redis.call('GET', KEYS[5]) or '0'
local leaseMs, entries = tonumber(ARGV[1]), tonumber(ARGV[5])
if entries > 0 then redis.call('LLEN', KEYS[4]) end
local keys = {}
for k = 6, #KEYS, 2 do
  local w = redis.call('HMGET', KEYS[k], 'ms', 'mu', 'hs', 'hu', 'ts', 'tu')
  redis.call('ZCARD', KEYS[k + 1])
  keys[k] = {
    ms = whole(w[1]), mu = whole(w[2]) or 0, hs = whole(w[3]), hu = whole(w[4]) or 0,
    ts = whole(w[5]), tu = whole(w[6]) or 0,
    kept = (w[1] or w[2] or w[3] or w[4] or w[5] or w[6]) ~= false, leases = {},
  }
end
-- Reads done: from here on only keys of the right type are written.
${REDIS_NOW}
for k = 6, #KEYS, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[k + 1], '-inf', real)
  keys[k].live = redis.call('ZCARD', KEYS[k + 1])
end
local prefix, nextLease = ARGV[6], tonumber(ARGV[7])
local tiers, at = {}, 8
for i = 1, tonumber(ARGV[4]) do
  local t = {}
  for j = 1, 8 do t[j] = tonumber(ARGV[at + j - 1]) end
  tiers[i], at = t, at + 8
end
local function start(n, now)
  if n ~= nil and n > now then
    repaired = repaired + 1
    return now
  end
  return n or now
end
local function retry(start, windowMs, now)
  return math.max(1, math.ceil((start + windowMs - now) / 1000))
end
local out = {offset, armed, stubs, 0, records}
local last = #ARGV - entries
while at <= last do
  local op = tonumber(ARGV[at])
  if op < 0 then
    local s = keys[-op]
    if redis.call('ZREM', KEYS[1 - op], prefix .. ARGV[at + 1]) == 1 then s.live = s.live - 1 end
    local bytes = tonumber(ARGV[at + 2])
    if bytes > 0 and s.kept then s.tu, s.charged = s.tu + bytes, true end
    at = at + 3
  else
    local s = keys[math.floor(op / 1024)]
    local t, now = tiers[op % 1024], tonumber(ARGV[at + 1]) + offset
    local lease = prefix .. nextLease
    nextLease = nextLease + 1
    local ms, hs, ts = start(s.ms, now), start(s.hs, now), start(s.ts, now)
    local mu, hu, tu = s.mu, s.hu, s.tu
    if now - ms >= t[2] then ms, mu = now, 0 end
    if now - hs >= t[4] then hs, hu = now, 0 end
    if now - ts >= t[6] then ts, tu = now, 0 end
    local code, value
    if mu >= t[1] then code, value = -1, retry(ms, t[2], now)
    elseif hu >= t[3] then code, value = -2, retry(hs, t[4], now)
    elseif tu >= t[5] then code, value = -3, retry(ts, t[6], now)
    elseif s.live >= t[7] then code, value = -4, 1
    else
      mu, hu, s.live = mu + 1, hu + 1, s.live + 1
      s.leases[#s.leases + 1] = real + leaseMs
      s.leases[#s.leases + 1] = lease
      if t[3] - hu < t[1] - mu then code, value = 2, t[3] - hu else code, value = 1, t[1] - mu end
    end
    s.ms, s.mu, s.hs, s.hu, s.ts, s.tu = ms, mu, hs, hu, ts, tu
    s.kept, s.ttl = true, t[8]
    out[#out + 1], out[#out + 2] = code, value
    at = at + 2
  end
end
for k = 6, #KEYS, 2 do
  local s = keys[k]
  if s.ttl then
    redis.call('HSET', KEYS[k], 'ms', s.ms, 'mu', s.mu, 'hs', s.hs, 'hu', s.hu, 'ts', s.ts, 'tu', s.tu)
    redis.call('PEXPIRE', KEYS[k], s.ttl)
  elseif s.charged then
    redis.call('HSET', KEYS[k], 'tu', s.tu)
  end
  if #s.leases > 0 then
    redis.call('ZADD', KEYS[k + 1], unpack(s.leases))
    redis.call('PEXPIRE', KEYS[k + 1], 2 * leaseMs)
  end
end
if entries > 0 then
  local length = redis.call('LPUSH', KEYS[4], unpack(ARGV, last + 1))
  redis.call('LTRIM', KEYS[4], 0, tonumber(ARGV[2]) - 1)
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
  -- How many entries the trim has dropped since the journal was cleared (redis-keys.ts).
  if length > tonumber(ARGV[2]) then
    local dropped = KEYS[4] .. ':dropped'
    own(dropped, 'string')
    redis.call('SET', dropped, (whole(redis.call('GET', dropped)) or 0) + length - tonumber(ARGV[2]), 'PX', ARGV[3])
  end
end
out[4] = repaired
return out
`;

/**
 * Entries kept under an order (the armed faults, all stubs, or one operation's stubs) oldest
 * first, as {JSON, left, JSON, left, ...}. KEYS: order, data, counts.
 */
export const LIST_KEPT = `
${REPAIR}
own(KEYS[1], 'zset')
own(KEYS[2], 'hash')
own(KEYS[3], 'hash')
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local raw = redis.call('HGET', KEYS[2], id)
  if raw then
    out[#out + 1] = raw
    out[#out + 1] = tostring(whole(redis.call('HGET', KEYS[3], id)) or 0)
  end
end
return out
`;

/**
 * Make one key hold what the store writes there (ARGV[1]: hash, zset, list, or integer: a string
 * holding one), deleting it otherwise. KEYS: the key. Returns repairs made (0 or 1).
 */
export const CLAIM = `
${REPAIR}
if ARGV[1] == 'integer' then
  own(KEYS[1], 'string')
  local raw = redis.call('GET', KEYS[1])
  if raw and not string.match(raw, '^%-?%d+$') then
    redis.call('DEL', KEYS[1])
    repaired = repaired + 1
  end
else
  own(KEYS[1], ARGV[1])
end
return repaired
`;
