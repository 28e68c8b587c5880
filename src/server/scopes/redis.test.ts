/**
 * @module scopes/redis.test
 * Scopes on a fleet: two instances on one real redis-server. A scope made on one works on the
 * other (built there on first sight of its key or its admin path), with its state shared and
 * still apart from the mock's own; closing it on one ends it on both and deletes its Redis keys;
 * the limit counts the fleet's scopes; the TTL is on the mock's clock.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qaControls } from '../../api/qa.js';
import { ManualClock } from '../../state/clock/clock.js';
import { DEMO, sharedDataset } from '../../testing/mock-app.js';
import { redisAvailable, TestRedis } from '../../testing/redis-server.js';
import { startMockServer, type ListenOptions, type RunningServer } from '../listen.js';

const TOKEN = 'scopes-redis-admin';
let redis: TestRedis;
let client: Redis;
let prefixCounter = 0;
const running: RunningServer[] = [];

async function fleet(options: ListenOptions = {}): Promise<[RunningServer, RunningServer]> {
  const prefix = `scopes${process.pid}-${++prefixCounter}:`;
  const start = () =>
    startMockServer({
      datasets: { production: sharedDataset() },
      adminToken: TOKEN,
      stateUrl: redis.url,
      stateOptions: { prefix, commandTimeoutMs: 5000 },
      ...options,
    });
  const pair = [await start(), await start()] as [RunningServer, RunningServer];
  running.push(...pair);
  return pair;
}

const qaOf = (server: RunningServer) => qaControls({ origin: server.origin, adminToken: TOKEN });
const get = async (server: RunningServer, path: string, key: string) => {
  const response = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': key } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
const PRODUCT = sharedDataset().products.id(0);

describe.skipIf(!redisAvailable())('scopes on a fleet sharing Redis', () => {
  beforeAll(async () => {
    redis = await TestRedis.start();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    await Promise.all(running.map((server) => server.close()));
    client.disconnect();
    await redis?.stop();
  });

  it('a scope made on one instance works on the other, apart from the mock own state', async () => {
    const [a, b] = await fleet();
    const scope = await qaOf(a).scope();
    await scope.stub({
      operationId: 'getProduct',
      match: { params: { product_id: PRODUCT } },
      patch: { title: 'scoped' },
    });
    expect((await get(b, `/products/${PRODUCT}`, scope.apiKey)).body.title).toBe('scoped');
    expect((await get(a, `/products/${PRODUCT}`, DEMO.unlimited)).body.title).not.toBe('scoped');
    // The scope's controls on the other instance act on the same scope.
    const onB = qaControls({ origin: b.origin, adminToken: TOKEN });
    const made = await fetch(`${b.origin}/__mock/scopes/${scope.id}/requests?limit=10`, {
      headers: { 'x-mock-admin-token': TOKEN },
    });
    const journal = (await made.json()) as { requests: { key: string }[] };
    expect(journal.requests.map((r) => r.key)).toEqual([scope.keyName]);
    // The fleet's own journal has the demo key's request, never the scope's.
    expect((await onB.journal()).map((r) => r.key)).toEqual(['demo-unlimited']);
  });

  it('close on one ends it on both and deletes its Redis keys', async () => {
    const [a, b] = await fleet();
    const scope = await qaOf(b).scope();
    await scope.armFault({ operationId: 'listProducts', status: 500, times: 3 });
    expect((await get(a, '/products?limit=1', scope.apiKey)).status).toBe(500);
    const prefix = `scopes${process.pid}-${prefixCounter}:`;
    expect(await client.keys(`${prefix}scope:${scope.id}:*`)).not.toEqual([]);
    await scope.close();
    expect((await get(a, '/products?limit=1', scope.apiKey)).status).toBe(401);
    expect((await get(b, '/products?limit=1', scope.apiKey)).status).toBe(401);
    expect(await client.keys(`${prefix}scope:${scope.id}:*`)).toEqual([]);
    expect(await client.keys(`${prefix}scopes:*`)).toEqual([]);
  });

  it('counts the fleet scopes against --max-scopes, and ends one unused for its TTL', async () => {
    const clock = new ManualClock();
    const [a, b] = await fleet({ maxScopes: 2, scopeTtlSeconds: 60, clock });
    await qaOf(a).scope();
    const second = await qaOf(b).scope();
    await expect(qaOf(a).scope()).rejects.toMatchObject({ status: 409 });
    clock.advance(30_000);
    expect((await get(b, '/products?limit=1', second.apiKey)).status).toBe(200);
    clock.advance(31_000);
    // The first has gone unused for 61 s: the next scope made takes its place.
    await expect(qaOf(b).scope()).resolves.toMatchObject({ ttlSeconds: 60 });
    clock.advance(60_000);
    expect((await get(a, '/products?limit=1', second.apiKey)).status).toBe(401);
  });

  it('lists the fleet scopes on every instance, leaving out entries the mock did not make', async () => {
    const [a, b] = await fleet();
    const prefix = `scopes${process.pid}-${prefixCounter}:`;
    const scope = await qaOf(a).scope();
    // Redis is input: an id of another form, and a purpose that names no demo key.
    for (const [id, purpose] of [
      ['not-a-scope-id', 'fullAccess'],
      ['0123456789abcdef', '__proto__'],
    ]) {
      await client.zadd(`${prefix}scopes:index`, Date.now(), id);
      await client.hset(`${prefix}scopes:id:${id}`, 'purpose', purpose, 'digest', 'aa');
    }
    const res = await fetch(`${b.origin}/__mock/scopes`, {
      headers: { 'x-mock-admin-token': TOKEN },
    });
    expect(await res.json()).toMatchObject({
      scopes: [{ id: scope.id, keyName: scope.keyName, purpose: 'fullAccess' }],
    });
  });

  it('sweeps the state of scopes the registry forgot (a fleet quiet past the TTL)', async () => {
    const clock = new ManualClock();
    const [a] = await fleet({ clock });
    const prefix = `scopes${process.pid}-${prefixCounter}:`;
    const forgotten = await qaOf(a).scope();
    await forgotten.armFault({ operationId: 'listProducts', status: 500, times: 3 });
    await forgotten.advanceClock(5);
    expect(await client.keys(`${prefix}scope:${forgotten.id}:*`)).not.toEqual([]);
    // What Redis's own expiry does to a registry nobody touched for the TTL and a minute.
    const registry = await client.keys(`${prefix}scopes:*`);
    await client.del(...registry);
    clock.advance(61_000);
    const next = await qaOf(a).scope();
    expect(await client.keys(`${prefix}scope:${forgotten.id}:*`)).toEqual([]);
    expect((await get(a, '/products?limit=1', next.apiKey)).status).toBe(200);
  });

  // Last: it restarts Redis, which comes back empty.
  it('answers 503, never a 500, while Redis is away, and forgets the scopes Redis forgot', async () => {
    const [a] = await fleet();
    const scope = await qaOf(a).scope();
    await redis.stop();
    const away = await get(a, '/products?limit=1', scope.apiKey);
    expect(away.status).toBe(503);
    expect(away.body.error).toMatch(/shared state store is unreachable/);
    await expect(qaOf(a).scope()).rejects.toMatchObject({ status: 503 });
    await redis.resume();
    await expect
      .poll(async () => (await get(a, '/products?limit=1', scope.apiKey)).status, {
        timeout: 10_000,
      })
      .toBe(401);
  });
});
