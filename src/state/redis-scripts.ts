/**
 * @module state/redis-scripts
 * The Lua scripts of the Redis store: each decision that reads shared state and then changes it
 * runs as one script, so Redis carries it out whole, with no other instance's command in between.
 * Mock time (window starts) is the instance's base clock plus the shared QA clock offset; lease
 * time is Redis's own clock (TIME), so a lease ends on schedule whatever the instances' clocks say.
 */

/** Milliseconds since the epoch by Redis's clock. */
const REDIS_NOW = `local t = redis.call('TIME')
local real = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/**
 * Admit and count one request (the four kinds, in the in-memory limiter's order: per minute,
 * per hour, data transfer, then concurrent connections), taking a slot with a lease.
 * KEYS: windows hash, slots sorted set (lease id -> lease end), clock offset, armed-fault order.
 * ARGV: base now, per minute, minute ms, per hour, hour ms, bytes, transfer ms, connections,
 *       lease id, lease ms, windows ttl ms.
 * Returns {1, limit, remaining, offset, armed} or {0, kind (1-4), retry after s, limit, offset, armed}.
 */
export const ADMIT = `
local offset = tonumber(redis.call('GET', KEYS[3]) or '0')
local now = tonumber(ARGV[1]) + offset
local perMinute, minuteMs = tonumber(ARGV[2]), tonumber(ARGV[3])
local perHour, hourMs = tonumber(ARGV[4]), tonumber(ARGV[5])
local bytes, transferMs = tonumber(ARGV[6]), tonumber(ARGV[7])
local connections = tonumber(ARGV[8])
local armed = redis.call('ZCARD', KEYS[4])
local w = redis.call('HMGET', KEYS[1], 'ms', 'mu', 'hs', 'hu', 'ts', 'tu')
local ms, mu = tonumber(w[1]) or now, tonumber(w[2]) or 0
local hs, hu = tonumber(w[3]) or now, tonumber(w[4]) or 0
local ts, tu = tonumber(w[5]) or now, tonumber(w[6]) or 0
if now - ms >= minuteMs then ms, mu = now, 0 end
if now - hs >= hourMs then hs, hu = now, 0 end
if now - ts >= transferMs then ts, tu = now, 0 end
local function refuse(kind, start, windowMs)
  redis.call('HSET', KEYS[1], 'ms', ms, 'mu', mu, 'hs', hs, 'hu', hu, 'ts', ts, 'tu', tu)
  redis.call('PEXPIRE', KEYS[1], ARGV[11])
  local retry = 1
  if start then retry = math.max(1, math.ceil((start + windowMs - now) / 1000)) end
  return {0, kind, retry, offset, armed}
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
if perHour - hu < perMinute - mu then return {1, perHour, perHour - hu, offset, armed} end
return {1, perMinute, perMinute - mu, offset, armed}
`;

/**
 * Give a slot back and charge the body bytes to the current transfer window (once: the caller's
 * slot releases once). KEYS: windows hash, slots. ARGV: lease id, bytes.
 */
export const RELEASE = `
redis.call('ZREM', KEYS[2], ARGV[1])
if tonumber(ARGV[2]) > 0 and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], 'tu', ARGV[2])
end
return 1
`;

/** Extend this instance's live leases on one key. KEYS: slots. ARGV: lease ms, lease ids... */
export const RENEW = `
${REDIS_NOW}
local ends = real + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', ends, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], 2 * tonumber(ARGV[1]))
return 1
`;

/**
 * Use up one count of the oldest armed fault that matches (key, operation, a status the
 * operation declares). KEYS: order (id -> sequence), faults (id -> JSON), counts (id -> left).
 * ARGV: key name ('' for none), operationId, declared statuses as ",200,404,".
 * Returns {fault JSON or false, armed left}.
 */
export const TAKE_FAULT = `
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local raw = redis.call('HGET', KEYS[2], id)
  if not raw then
    redis.call('ZREM', KEYS[1], id)
  else
    local f = cjson.decode(raw)
    local m, status = f.match, f.action.status
    if (m.key == nil or m.key == ARGV[1]) and (m.operationId == nil or m.operationId == ARGV[2])
      and (status == nil or string.find(ARGV[3], ',' .. status .. ',', 1, true)) then
      if redis.call('HINCRBY', KEYS[3], id, -1) <= 0 then
        redis.call('ZREM', KEYS[1], id)
        redis.call('HDEL', KEYS[2], id)
        redis.call('HDEL', KEYS[3], id)
      end
      return {raw, redis.call('ZCARD', KEYS[1])}
    end
  end
end
return {false, redis.call('ZCARD', KEYS[1])}
`;

/**
 * Arm a fault unless the limit is reached. KEYS: order, faults, counts, sequence.
 * ARGV: id, fault JSON, count, most armed at once, ttl ms. Returns 1, or 0 when full.
 */
export const ARM = `
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[4]), ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
return 1
`;

/** Clear one armed fault (ARGV[1]) or all (no ARGV). KEYS: order, faults, counts. Returns how many. */
export const DISARM = `
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
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local raw = redis.call('HGET', KEYS[2], id)
  if raw then
    out[#out + 1] = raw
    out[#out + 1] = redis.call('HGET', KEYS[3], id) or '0'
  end
end
return out
`;

/**
 * Add journal entries (oldest first), keep the newest ARGV[1], refresh the ttl.
 * KEYS: journal. ARGV: cap, ttl ms, entry JSON...
 */
export const RECORD = `
redis.call('LPUSH', KEYS[1], unpack(ARGV, 3))
redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[1]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;
