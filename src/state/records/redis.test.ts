/**
 * @module state/records/redis.test
 * Record edits across a fleet: two mocks on real sockets sharing one real Redis. A record put
 * through one instance's admin API is served by the other at once; a removal and a reset through
 * the other reach the first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningServer } from '../../server/listen.js';
import { ADMIN_TOKEN_HEADER } from '../../server/admin/admin.js';
import { redisAvailable, TestRedis } from '../../testing/redis-server.js';

const TOKEN = 'fleet-records-token';
const KEY = 'demo-production-key';
let redis: TestRedis;
const fleet: RunningServer[] = [];

const api = (s: RunningServer, path: string) =>
  fetch(`${s.origin}/web-data/v1${path}`, { headers: { 'x-api-key': KEY } });
const admin = (s: RunningServer, method: string, path: string, body?: unknown) =>
  fetch(`${s.origin}/__mock${path}`, {
    method,
    headers: { [ADMIN_TOKEN_HEADER]: TOKEN, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe.skipIf(!redisAvailable())('record edits on two instances sharing Redis', () => {
  beforeAll(async () => {
    redis = await TestRedis.start();
    for (let i = 0; i < 2; i++)
      fleet.push(
        await startMockServer({
          port: 0,
          host: '127.0.0.1',
          adminToken: TOKEN,
          stateUrl: redis.url,
          instanceId: `records-${i}`,
        }),
      );
  });
  afterAll(async () => {
    await Promise.all(fleet.map((s) => s.close()));
    await redis?.stop();
  });

  it('a put on one instance is served by the other; a remove and a reset on the other reach the first', async () => {
    const [a, b] = fleet;
    const list = (await (await api(a, '/packages?limit=1')).json()) as {
      data: Record<string, unknown>[];
      pagination: { total: number };
    };
    const seedTotal = list.pagination.total;
    const put = await admin(a, 'PUT', '/records/packages/PKG-FLEET', {
      ...list.data[0],
      packageCode: 'PKG-FLEET',
    });
    expect(put.status).toBe(201);
    const onB = await api(b, '/packages/PKG-FLEET');
    expect(onB.status).toBe(200);
    expect(((await onB.json()) as { packageCode: string }).packageCode).toBe('PKG-FLEET');
    const totalOnB = (await (await api(b, '/packages?limit=1')).json()) as {
      pagination: { total: number };
    };
    expect(totalOnB.pagination.total).toBe(seedTotal + 1);

    const seedCode = list.data[0].packageCode as string;
    expect(
      (await admin(b, 'DELETE', `/records/packages/${encodeURIComponent(seedCode)}`)).status,
    ).toBe(200);
    expect((await api(a, `/packages/${encodeURIComponent(seedCode)}`)).status).toBe(404);

    expect((await admin(b, 'POST', '/reset', {})).status).toBe(200);
    expect((await api(a, '/packages/PKG-FLEET')).status).toBe(404);
    expect((await api(a, `/packages/${encodeURIComponent(seedCode)}`)).status).toBe(200);
    expect(await (await admin(a, 'GET', '/records')).json()).toEqual({ edits: [] });
  });

  it('reads only the edits after those applied, yet a reset followed by as many edits is read whole', async () => {
    const [a, b] = fleet;
    const [seed] = (
      (await (await api(a, '/packages?limit=1')).json()) as { data: Record<string, unknown>[] }
    ).data;
    const put = async (on: RunningServer, code: string, name: string) =>
      expect(
        (await admin(on, 'PUT', `/records/packages/${code}`, { ...seed, packageCode: code, name }))
          .status,
      ).toBeLessThan(300);
    const nameOn = async (on: RunningServer, code: string) => {
      const res = await api(on, `/packages/${code}`);
      return res.status === 200 ? ((await res.json()) as { name: unknown }).name : res.status;
    };
    await put(a, 'PKG-P1', 'first');
    await put(a, 'PKG-P2', 'second');
    expect(await nameOn(b, 'PKG-P1')).toBe('first');
    await put(a, 'PKG-P1', 'replaced');
    expect(await nameOn(b, 'PKG-P1')).toBe('replaced');
    expect(await nameOn(b, 'PKG-P2')).toBe('second');
    // As many edits after a reset as B had read before it: B must see a new log, not "nothing new".
    expect((await admin(a, 'POST', '/reset', {})).status).toBe(200);
    await put(a, 'PKG-Q1', 'q1');
    await put(a, 'PKG-Q2', 'q2');
    await put(a, 'PKG-Q3', 'q3');
    expect(await nameOn(b, 'PKG-P1')).toBe(404);
    expect(await nameOn(b, 'PKG-P2')).toBe(404);
    expect(await nameOn(b, 'PKG-Q3')).toBe('q3');
    expect((await admin(b, 'POST', '/reset', {})).status).toBe(200);
  });

  it('while Redis is away an edit is a 503 saying so, and the edits last read are still served', async () => {
    const [a] = fleet;
    const pkg = ((await (await api(a, '/packages?limit=1')).json()) as { data: object[] }).data[0];
    expect(
      (await admin(a, 'PUT', '/records/packages/PKG-KEPT', { ...pkg, packageCode: 'PKG-KEPT' }))
        .status,
    ).toBe(201);
    expect((await api(a, '/packages/PKG-KEPT')).status).toBe(200);
    await redis.stop();
    try {
      const refused = await admin(a, 'PUT', '/records/packages/PKG-LOST', {
        ...pkg,
        packageCode: 'PKG-LOST',
      });
      expect(refused.status).toBe(503);
      const text = await refused.text();
      expect(text).toContain('shared state (--state) is unreachable');
      expect(text).not.toContain(redis.url);
      expect((await api(a, '/packages/PKG-KEPT')).status).toBe(200);
    } finally {
      await redis.resume();
    }
  });
});
