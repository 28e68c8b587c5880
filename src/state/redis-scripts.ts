/**
 * @module state/redis-scripts
 * The Lua scripts of the Redis store: each decision that reads shared state and then changes it
 * runs as one script, so Redis carries it out whole, with no other instance's command in between.
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
const REPAIR = `local repaired = 0
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
const REDIS_NOW = `local t = redis.call('TIME')
local real = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Admit and count one request (the four kinds, in the in-memory limiter's order: per minute,
 * per hour, data transfer, then concurrent connections), taking a slot with a lease.
 * KEYS: windows hash, slots sorted set (lease id -> lease end), clock offset, armed-fault order,
 * stub order.
 * ARGV: base now, per minute, minute ms, per hour, hour ms, bytes, transfer ms, connections,
 *       lease id, lease ms, windows ttl ms.
 * Returns {1, limit, remaining, offset, armed, repaired, stubs} or {0, kind (1-4), retry after s,
 * offset, armed, repaired, stubs}: so every instance learns with each request whether a fault or a
 * stub is kept anywhere. A window start later than now (spoiled) starts the window now.
 */
export const ADMIT = `
${REPAIR}
own(KEYS[1], 'hash')
own(KEYS[2], 'zset')
own(KEYS[3], 'string')
own(KEYS[4], 'zset')
own(KEYS[5], 'zset')
local offset = whole(redis.call('GET', KEYS[3])) or 0
local now = tonumber(ARGV[1]) + offset
local perMinute, minuteMs = tonumber(ARGV[2]), tonumber(ARGV[3])
local perHour, hourMs = tonumber(ARGV[4]), tonumber(ARGV[5])
local bytes, transferMs = tonumber(ARGV[6]), tonumber(ARGV[7])
local connections = tonumber(ARGV[8])
local armed = redis.call('ZCARD', KEYS[4])
local stubs = redis.call('ZCARD', KEYS[5])
local w = redis.call('HMGET', KEYS[1], 'ms', 'mu', 'hs', 'hu', 'ts', 'tu')
local function start(raw)
  local n = whole(raw)
  if n ~= nil and n > now then
    repaired = repaired + 1
    return now
  end
  return n or now
end
local ms, mu = start(w[1]), whole(w[2]) or 0
local hs, hu = start(w[3]), whole(w[4]) or 0
local ts, tu = start(w[5]), whole(w[6]) or 0
if now - ms >= minuteMs then ms, mu = now, 0 end
if now - hs >= hourMs then hs, hu = now, 0 end
if now - ts >= transferMs then ts, tu = now, 0 end
local function refuse(kind, start, windowMs)
  redis.call('HSET', KEYS[1], 'ms', ms, 'mu', mu, 'hs', hs, 'hu', hu, 'ts', ts, 'tu', tu)
  redis.call('PEXPIRE', KEYS[1], ARGV[11])
  local retry = 1
  if start then retry = math.max(1, math.ceil((start + windowMs - now) / 1000)) end
  return {0, kind, retry, offset, armed, repaired, stubs}
end
if mu >= perMinute then return refuse(1, ms, minuteMs) end
if hu >= perHour then return refuse(2, hs, hourMs) end
if tu >= bytes then return refuse(3, ts, transferMs) end
${REDIS_NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', real)
if redis.call('ZCARD', KEYS[2]) >= connections then return refuse(4, nil, 0) end
mu, hu = mu + 1, hu + 1
redis.call('HSET', KEYS[1], 'ms', ms, 'mu', mu, 'hs', hs, 'hu', hu, 'ts', ts, 'tu', tu)
redis.call('PEXPIRE', KEYS[1], ARGV[11])
redis.call('ZADD', KEYS[2], real + tonumber(ARGV[10]), ARGV[9])
redis.call('PEXPIRE', KEYS[2], 2 * tonumber(ARGV[10]))
if perHour - hu < perMinute - mu then return {1, perHour, perHour - hu, offset, armed, repaired, stubs} end
return {1, perMinute, perMinute - mu, offset, armed, repaired, stubs}
`;

/**
 * Give a slot back and charge the body bytes to the current transfer window (once: the caller's
 * slot releases once). KEYS: windows hash, slots. ARGV: lease id, bytes. Returns repairs made.
 */
export const RELEASE = `
${REPAIR}
own(KEYS[1], 'hash')
own(KEYS[2], 'zset')
redis.call('ZREM', KEYS[2], ARGV[1])
if tonumber(ARGV[2]) > 0 and redis.call('EXISTS', KEYS[1]) == 1 then
  local tu = whole(redis.call('HGET', KEYS[1], 'tu')) or 0
  redis.call('HSET', KEYS[1], 'tu', tu + tonumber(ARGV[2]))
end
return repaired
`;

/** Extend this instance's live leases on one key. KEYS: slots. ARGV: lease ms, lease ids... Returns repairs made. */
export const RENEW = `
${REPAIR}
own(KEYS[1], 'zset')
${REDIS_NOW}
local ends = real + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', ends, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], 2 * tonumber(ARGV[1]))
return repaired
`;

/**
 * Use up one count of one armed fault (ARGV[1], its id), chosen by the instance with the one
 * matcher (state/match.ts): Redis only makes the take atomic. KEYS: order (id -> sequence),
 * faults (id -> JSON), counts (id -> left). Returns {fault JSON or false when another instance
 * took its last count first, armed left, repairs made}.
 */
export const TAKE_FAULT = `
${REPAIR}
own(KEYS[1], 'zset')
own(KEYS[2], 'hash')
own(KEYS[3], 'hash')
local id = ARGV[1]
local raw = redis.call('HGET', KEYS[2], id)
local left = whole(redis.call('HGET', KEYS[3], id))
if not raw or not left or left < 1 or not redis.call('ZSCORE', KEYS[1], id) then
  return {false, redis.call('ZCARD', KEYS[1]), repaired}
end
left = left - 1
if left <= 0 then
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
else
  redis.call('HSET', KEYS[3], id, left)
end
return {raw, redis.call('ZCARD', KEYS[1]), repaired}
`;

/**
 * Arm a fault unless the limit is reached. KEYS: order, faults, counts, sequence.
 * ARGV: id, fault JSON, count, most armed at once, ttl ms. Returns 1, or 0 when full.
 */
export const ARM = `
${REPAIR}
own(KEYS[1], 'zset')
own(KEYS[2], 'hash')
own(KEYS[3], 'hash')
own(KEYS[4], 'string')
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
local sequence = (whole(redis.call('GET', KEYS[4])) or 0) + 1
redis.call('SET', KEYS[4], sequence)
redis.call('ZADD', KEYS[1], sequence, ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
return 1
`;

/** Clear one armed fault (ARGV[1]) or all (no ARGV). KEYS: order, faults, counts. Returns how many. */
export const DISARM = `
${REPAIR}
own(KEYS[1], 'zset')
own(KEYS[2], 'hash')
own(KEYS[3], 'hash')
if ARGV[1] then
  local n = redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
  return n
end
local n = redis.call('ZCARD', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return n
`;

/** Armed faults oldest first, as {JSON, left, JSON, left, ...}. KEYS: order, faults, counts. */
export const LIST_FAULTS = `
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
 * Add journal entries (oldest first), keep the newest ARGV[1], refresh the ttl.
 * KEYS: journal. ARGV: cap, ttl ms, entry JSON... Returns repairs made.
 */
export const RECORD = `
${REPAIR}
own(KEYS[1], 'list')
redis.call('LPUSH', KEYS[1], unpack(ARGV, 3))
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[1]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return repaired
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
