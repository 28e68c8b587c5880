/**
 * @module state/limits/scripts
 * The limits' own script (the admits and releases ride in the shared turn, shared/scripts.ts TURN).
 */
import { REDIS_NOW, REPAIR } from '../shared/scripts.js';

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
