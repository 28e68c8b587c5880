/**
 * @module state/stubs/scripts
 * The stubs' scripts: stubs are kept as the armed faults are (order, JSON, counts left) plus an
 * index by operation (a sorted set of ids per operationId, and each id's operationId) and a
 * version that every add, removal and last take bumps. An instance reads only the stubs of the
 * request's operation, and only when the version is not the one it read them at
 * (redis.ts's #stubsFor): a request no longer downloads every stub.
 *
 * KEYS of each: order (id -> sequence), data (id -> JSON), left (id -> count), operation of
 * (id -> operationId), version; ARGV[1] the prefix of the per-operation sets (`<prefix>stubs:op:`).
 * The version key never expires, so it never goes back to a number an instance cached.
 */
import { REPAIR } from '../shared/scripts.js';

const OWN_AND_DROP = `${REPAIR}
own(KEYS[1], 'zset')
own(KEYS[2], 'hash')
own(KEYS[3], 'hash')
own(KEYS[4], 'hash')
own(KEYS[5], 'string')
local function bump()
  redis.call('SET', KEYS[5], (whole(redis.call('GET', KEYS[5])) or 0) + 1)
end
local function drop(id)
  local op = redis.call('HGET', KEYS[4], id)
  if op then redis.call('ZREM', ARGV[1] .. op, id) end
  redis.call('HDEL', KEYS[2], id)
  redis.call('HDEL', KEYS[3], id)
  redis.call('HDEL', KEYS[4], id)
  return redis.call('ZREM', KEYS[1], id)
end`;

/**
 * Add one stub. KEYS: the five, then the sequence and the operation's set. ARGV: set prefix, id,
 * JSON, count left, most stubs kept, time kept (ms), operationId. Returns 1, or 0 when full.
 */
export const ADD_STUB = `
${OWN_AND_DROP}
own(KEYS[6], 'string')
own(KEYS[7], 'zset')
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then return 0 end
local sequence = (whole(redis.call('GET', KEYS[6])) or 0) + 1
local id = ARGV[2]
redis.call('SET', KEYS[6], sequence)
redis.call('ZADD', KEYS[1], sequence, id)
redis.call('HSET', KEYS[2], id, ARGV[3])
redis.call('HSET', KEYS[3], id, ARGV[4])
redis.call('HSET', KEYS[4], id, ARGV[7])
redis.call('ZADD', KEYS[7], sequence, id)
bump()
for _, i in ipairs({1, 2, 3, 4, 6, 7}) do redis.call('PEXPIRE', KEYS[i], ARGV[6]) end
return 1
`;

/** Remove one stub (ARGV[2], its id) or, without it, all. Returns how many were removed. */
export const REMOVE_STUBS = `
${OWN_AND_DROP}
local n = 0
if ARGV[2] then
  n = drop(ARGV[2])
else
  for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do n = n + drop(id) end
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
end
if n > 0 then bump() end
return n
`;

/**
 * Use up one count of one stub (ARGV[2], its id), chosen by the instance with the one matcher.
 * Returns {1 taken or 0 when another instance took its last count first, stubs left, repairs}.
 */
export const TAKE_STUB = `
${OWN_AND_DROP}
local id = ARGV[2]
local left = whole(redis.call('HGET', KEYS[3], id))
if not redis.call('ZSCORE', KEYS[1], id) or not left or left < 1 then
  return {0, redis.call('ZCARD', KEYS[1]), repaired}
end
left = left - 1
if left <= 0 then
  drop(id)
  bump()
else
  redis.call('HSET', KEYS[3], id, left)
end
return {1, redis.call('ZCARD', KEYS[1]), repaired}
`;
