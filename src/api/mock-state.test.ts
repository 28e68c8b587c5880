/**
 * @module api/mock-state.test
 * The library takes the fleet as the command does, on a real redis-server: `startMock({ state:
 * 'redis://...' })` keeps its journal, stubs and limits in Redis (two mocks started with it share
 * them; the keys are under its prefix), and the journal's window holds there too: a Redis journal
 * of size 10 after 25 requests fails `times: 25` naming the 15 it no longer keeps.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../index.js';
import { expectConsole } from '../testing/expected-output.js';
import { redisAvailable, TestRedis } from '../testing/redis-server.js';

let redis: TestRedis;
let raw: Redis;
const running: RunningMock[] = [];

const runDescribe = redisAvailable() ? describe : describe.skip;

async function listProducts(mock: RunningMock, times: number): Promise<void> {
  for (let i = 0; i < times; i += 1)
    await (
      await fetch(`${mock.url}/products?limit=1`, {
        headers: { 'x-api-key': mock.keys.fullAccess },
      })
    ).arrayBuffer();
}

runDescribe('startMock({ state }) on a real redis-server', () => {
  beforeAll(async () => {
    redis = await TestRedis.start();
    raw = new Redis(redis.url);
  });
  afterAll(async () => {
    await Promise.all(running.map((m) => m.close()));
    raw?.disconnect();
    await redis?.stop();
  });

  it('keeps the journal in Redis, shared by two mocks with the same state', async () => {
    const statePrefix = `lib${process.pid}:`;
    const options = { state: redis.url, statePrefix, adminToken: 'qa' };
    const [a, b] = await Promise.all([startMock(options), startMock(options)]);
    running.push(a, b);
    await a.qa.reset();
    await listProducts(a, 2);
    await listProducts(b, 1);
    expect((await a.qa.config()).state).toMatchObject({ store: redis.url, local: false });
    // b sees a's requests: the journal is the shared one, not each process's own.
    await b.qa.verify({ operationId: 'listProducts' }, { times: 3 });
    expect(await raw.llen(`${statePrefix}journal`)).toBe(3);
  });

  it('fails times: 25 after 25 requests to a Redis journal of size 10, naming the window', async () => {
    const mock = await startMock({
      state: redis.url,
      statePrefix: `window${process.pid}:`,
      adminToken: 'qa',
      journal: { size: 10 },
    });
    running.push(mock);
    await mock.qa.reset();
    await listProducts(mock, 25);
    await expect(mock.qa.verify({ operationId: 'listProducts' }, { times: 25 })).rejects.toThrow(
      /received 10 \(of 10 in the journal\)[\s\S]*10 kept; 15 earlier requests no longer kept \(journal size 10\)/,
    );
    expect(await raw.get(`window${process.pid}:journal:dropped`)).toBe('15');
    await mock.qa.reset();
    expect(await raw.exists(`window${process.pid}:journal:dropped`)).toBe(0);
    await listProducts(mock, 3);
    await mock.qa.verify({ operationId: 'listProducts' }, { times: 3 });
  });

  it('repairs a spoiled dropped count (a hash, text) and keeps counting, still on shared state', async () => {
    const said = expectConsole('error', /^\[mock\] state store .*: repaired spoiled data/);
    const statePrefix = `spoiled${process.pid}:`;
    const mock = await startMock({
      state: redis.url,
      statePrefix,
      adminToken: 'qa',
      journal: { size: 2 },
    });
    running.push(mock);
    await mock.qa.reset();
    await raw.hset(`${statePrefix}journal:dropped`, 'x', '1');
    await listProducts(mock, 3);
    expect(await raw.get(`${statePrefix}journal:dropped`)).toBe('1');
    await raw.set(`${statePrefix}journal:dropped`, 'abc');
    const found = await mock.qa.requests({ operationId: 'listProducts' });
    expect(found.window).toMatchObject({ kept: 2, dropped: 0 });
    await listProducts(mock, 1);
    expect(await raw.get(`${statePrefix}journal:dropped`)).toBe('1');
    expect((await mock.qa.config()).state).toMatchObject({ local: false });
    expect(((await mock.qa.config()).state as { repaired: number }).repaired).toBeGreaterThan(0);
    expect(said).toHaveLength(1);
  });
});
