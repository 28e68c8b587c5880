/**
 * Batching keeps the shared limit exact, on a real redis-server: two store instances each admit
 * many requests in one turn of the event loop against a limit of k a minute. Each turn goes out
 * as one script call (a turn fuller than MAX_TURN_ITEMS as more), Redis runs the admits one after
 * the other in arrival order, and exactly k are admitted across both instances: each instance's
 * admitted requests are the first ones it got, `remaining` counting down in arrival order, the
 * rest refused by the minute's limit. Their slots go back in one turn too. A turn that meets a key
 * of the wrong type has changed nothing: repaired and sent again, each request is counted once.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../clock/clock.js';
import { Journal } from '../journal/journal.js';
import { MemoryStores } from '../memory.js';
import { RateLimiter, type Tier } from '../limits/rate-limiter.js';
import { MAX_TURN_ITEMS } from './turn.js';
import { RedisStores } from '../redis.js';
import type { JournalEntry } from '../journal/store.js';
import type { Admission } from '../limits/store.js';
import { redisAvailable, TestRedis } from '../../testing/redis-server.js';

const LIMIT = 7;
const TIER: Tier = {
  requestsPerMinute: LIMIT,
  requestsPerHour: 1000,
  concurrentConnections: 10_000,
  bytesPerWindow: 1e12,
  minuteWindowSeconds: 60,
  hourWindowSeconds: 3600,
  transferWindowSeconds: 60,
};

let redis: TestRedis;
let raw: Redis;
let prefixCounter = 0;
const prefixOf = () => `batch${process.pid}-${prefixCounter}:`;
const stores: RedisStores[] = [];

/** `n` store instances sharing one fresh prefix, as the mocks of a fleet would. */
async function fleet(n: number): Promise<RedisStores[]> {
  prefixCounter += 1;
  const prefix = prefixOf();
  const tiers = new Map([['t', TIER]]);
  const out: RedisStores[] = [];
  for (let i = 0; i < n; i += 1) {
    const clock = new AdjustableClock();
    const local = new MemoryStores({
      limiter: new RateLimiter(tiers, clock),
      journal: new Journal(),
      clock,
    });
    const store = await RedisStores.connect(
      redis.url,
      { local, tiers, clock },
      // A long lease: no renewal call while the test counts script calls.
      { instanceId: `instance-${i}`, prefix, leaseMs: 600_000, commandTimeoutMs: 5000 },
    );
    stores.push(store);
    out.push(store);
  }
  return out;
}

/** Script calls redis-server has run so far (EVAL the first time on a connection, then EVALSHA). */
async function scriptCalls(): Promise<number> {
  const stats = await raw.info('commandstats');
  let calls = 0;
  for (const [, n] of stats.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)) calls += Number(n);
  return calls;
}

/** A journal entry for a request to `path`. */
const entry = (path: string): JournalEntry => ({
  id: path,
  atMs: Date.now(),
  method: 'GET',
  path,
  status: 200,
  key: 'k',
  operation: null,
  ms: 1,
  instance: 'test',
});

/** An admit (a promise on a shared store that is up: the turn's reply answers it). */
const ask = (store: RedisStores) => Promise.resolve(store.limits.admit('k', 't'));

/** The admitted ones first, in arrival order, `remaining` counting down; then only refusals. */
function expectArrivalOrder(answers: Admission[]): number {
  const admitted = answers.filter((a) => a.ok).length;
  answers.forEach((a, i) => {
    expect(a.local, `answer ${i} from local state`).toBeUndefined();
    if (i < admitted) expect(a).toMatchObject({ ok: true, limit: LIMIT });
    else expect(a).toMatchObject({ ok: false, kind: 'requests per minute', limit: LIMIT });
  });
  const remaining = answers.slice(0, admitted).map((a) => (a.ok ? a.remaining : -1));
  expect(remaining).toEqual([...remaining].sort((x, y) => y - x));
  expect(new Set(remaining).size).toBe(admitted);
  return admitted;
}

describe.skipIf(!redisAvailable())('one turn of admits, one script call, the limit exact', () => {
  beforeAll(async () => {
    redis = await TestRedis.start();
    raw = new Redis(redis.url);
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    raw?.disconnect();
    await redis?.stop();
  });

  it('admits exactly k of 2 x 20 requests sent in one turn on two instances, in arrival order', async () => {
    const [a, b] = await fleet(2);
    const before = await scriptCalls();
    // All forty in one turn: nothing is awaited until every admit is asked for.
    const asked = Array.from({ length: 40 }, (_, i) => ask(i % 2 ? b : a));
    const answers = await Promise.all(asked);
    expect(await scriptCalls()).toBe(before + 2);
    const onA = expectArrivalOrder(answers.filter((_, i) => i % 2 === 0));
    const onB = expectArrivalOrder(answers.filter((_, i) => i % 2 === 1));
    expect(onA + onB).toBe(LIMIT);
    // Every remaining count from LIMIT - 1 down to 0 was given exactly once across the fleet.
    const remaining = answers.flatMap((x) => (x.ok ? [x.remaining] : []));
    expect(remaining.sort((x, y) => x - y)).toEqual([...Array(LIMIT).keys()]);

    // Their slots go back in one turn, one call for the instance.
    const slots = (await a.limits.usage()).k.inFlight;
    expect(slots).toBe(LIMIT);
    const held = await scriptCalls();
    for (const x of answers) if (x.ok) x.slot.release(10);
    await new Promise((resolve) => setImmediate(resolve));
    const after = await a.limits.usage();
    expect(await scriptCalls()).toBeLessThanOrEqual(held + 2);
    expect(after.k).toMatchObject({ inFlight: 0, bytes: 10 * LIMIT, minute: LIMIT });
  });

  it('repairs keys of the wrong type a turn meets and sends it again, counting each request once', async () => {
    const [a] = await fleet(1);
    expect(await ask(a)).toMatchObject({ ok: true, remaining: LIMIT - 1 });
    const prefix = prefixOf();
    // The journal, which the script writes last, spoiled: it must stop before the counts change.
    await raw.set(`${prefix}journal`, 'not a list');
    const asked = [ask(a), ask(a), ask(a)];
    a.journal.record(entry('after the repair'));
    const answers = await Promise.all(asked);
    expect(answers.map((x) => x.ok && x.remaining)).toEqual([LIMIT - 2, LIMIT - 3, LIMIT - 4]);
    expect(answers.every((x) => x.local === undefined)).toBe(true);
    expect(a.repaired).toBe(1);
    expect(a.local).toBe(false);
    // Sent twice, counted once: nothing of the first attempt stayed.
    expect((await a.limits.usage()).k).toMatchObject({ minute: 4, inFlight: 4 });
    expect((await a.journal.last(5)).map((line) => line.path)).toEqual(['after the repair']);
  });

  it('splits a turn fuller than its bound into several calls and still admits exactly k', async () => {
    const [a, b] = await fleet(2);
    const perStore = MAX_TURN_ITEMS + 44;
    const before = await scriptCalls();
    const asked = Array.from({ length: 2 * perStore }, (_, i) => ask(i % 2 ? b : a));
    const answers = await Promise.all(asked);
    expect(await scriptCalls()).toBe(before + 4);
    const onA = expectArrivalOrder(answers.filter((_, i) => i % 2 === 0));
    const onB = expectArrivalOrder(answers.filter((_, i) => i % 2 === 1));
    expect(onA + onB).toBe(LIMIT);
  });
});
