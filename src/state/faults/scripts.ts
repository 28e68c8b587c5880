/**
 * @module state/faults/scripts
 * The armed faults' scripts: kept as an order (id -> sequence), the JSON (id -> fault) and the
 * counts left (id -> count), listed by the shared LIST_KEPT (shared/scripts.ts).
 */
import { REPAIR } from '../shared/scripts.js';

/**
 * Use up one count of one armed fault (ARGV[1], its id), chosen by the instance with the one
 * matcher (state/stubs/match.ts): Redis only makes the take atomic. KEYS: order (id -> sequence),
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
