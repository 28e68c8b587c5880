/**
 * Redis is input too (issue 36, "A fleet that trusts what Redis holds"), on a real redis-server:
 * a stub, an armed fault, a journal line or a record edit that another writer left under the
 * prefix is read by the admin API's own reader, skipped and counted in `repaired` when it fails,
 * and never taken for an outage (`x-mock-state: local`), a fallback to local state or a 500. And
 * a stub or fault added while Redis is away is refused with 503, as a record edit is.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningServer } from '../server/listen.js';
import { DEMO, sharedDataset } from '../testing/mock-app.js';
import { redisAvailable, TestRedis } from '../testing/redis-server.js';

const TOKEN = 'qa';
let redis: TestRedis;
let raw: Redis;
let counter = 0;
const running: RunningServer[] = [];

/** Two instances on one prefix, and the lines they log. */
async function fleet(): Promise<{ servers: RunningServer[]; prefix: string; lines: string[] }> {
  const prefix = `poison${process.pid}-${++counter}:`;
  const lines: string[] = [];
  const servers: RunningServer[] = [];
  for (const id of ['a', 'b']) {
    const server = await startMockServer({
      datasets: { production: sharedDataset() },
      adminToken: TOKEN,
      stateUrl: redis.url,
      instanceId: `instance-${id}`,
      stateOptions: {
        prefix,
        commandTimeoutMs: 5000,
        reconnectMaxMs: 200,
        log: (line) => lines.push(line),
      },
    });
    running.push(server);
    servers.push(server);
  }
  return { servers, prefix, lines };
}

async function get(server: RunningServer, path: string) {
  const res = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': DEMO.unlimited } });
  const text = await res.text();
  return { status: res.status, state: res.headers.get('x-mock-state'), text };
}

async function admin(server: RunningServer, path: string, body?: unknown) {
  const res = await fetch(`${server.origin}/__mock${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-mock-admin-token': TOKEN, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: res.status,
    state: res.headers.get('x-mock-state'),
    body: (await res.json()) as Record<string, unknown>,
  };
}

const repaired = async (server: RunningServer) =>
  ((await admin(server, '/config')).body.state as { repaired: number }).repaired;

/** Writes an entry among the stubs (or faults) the way a mock keeps one, as another writer could. */
async function plant(prefix: string, kind: 'stubs' | 'faults', id: string, json: string) {
  await raw.zadd(`${prefix}${kind}:order`, 1e9 + ++counter, id);
  await raw.hset(`${prefix}${kind}:data`, id, json);
  await raw.hset(`${prefix}${kind}:left`, id, 1000);
  if (kind === 'stubs') {
    await raw.hset(`${prefix}stubs:operation-of`, id, 'getProduct');
    await raw.zadd(`${prefix}stubs:op:getProduct`, 1e9 + counter, id);
    await raw.incr(`${prefix}stubs:version`);
  }
}

const runDescribe = redisAvailable() ? describe : describe.skip;

runDescribe('a fleet reads what Redis holds as untrusted input', () => {
  let productId: string;
  beforeAll(async () => {
    redis = await TestRedis.start();
    raw = new Redis(redis.url);
    const { servers } = await fleet();
    const list = JSON.parse((await get(servers[0], '/products?limit=1')).text) as {
      data: { productId: string }[];
    };
    productId = list.data[0].productId;
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.close()));
    raw?.disconnect();
    await redis?.stop();
  });

  it('skips and counts stubs that are not ones ({}, no patch or respond, status 99999, a bad header name); the real stub still applies on both instances', async () => {
    const { servers, prefix, lines } = await fleet();
    const added = await admin(servers[0], '/stubs', {
      operationId: 'getProduct',
      patch: { images: [] },
    });
    expect(added.status).toBe(201);
    const match = { operationId: 'getProduct' };
    await plant(prefix, 'stubs', 'p1', '{}');
    await plant(prefix, 'stubs', 'p2', JSON.stringify({ id: 'p2', match }));
    await plant(
      prefix,
      'stubs',
      'p3',
      JSON.stringify({ id: 'p3', match, respond: { status: 99999 } }),
    );
    await plant(
      prefix,
      'stubs',
      'p4',
      JSON.stringify({ id: 'p4', match, respond: { status: 200, headers: { 'bad name': 'x' } } }),
    );
    for (const server of servers)
      for (let i = 0; i < 3; i += 1) {
        const res = await get(server, `/products/${encodeURIComponent(productId)}`);
        expect(res.status, res.text).toBe(200);
        expect(res.state).toBeNull();
        expect((JSON.parse(res.text) as { images: unknown }).images).toEqual([]);
      }
    const listed = await admin(servers[1], '/stubs');
    expect(listed.state).toBeNull();
    expect((listed.body.stubs as { id: string }[]).map((s) => s.id)).toEqual([added.body.id]);
    expect(await repaired(servers[0])).toBeGreaterThanOrEqual(4);
    expect(lines.filter((l) => l.includes('unreachable'))).toEqual([]);
  });

  it('skips and counts a {} among the armed faults; the real fault still fires, on shared state', async () => {
    const { servers, prefix, lines } = await fleet();
    await plant(prefix, 'faults', 'f1', '{}');
    const armed = await admin(servers[0], '/faults', {
      operationId: 'listPackages',
      status: 500,
      count: 1,
    });
    expect(armed.status).toBe(201);
    const hit = await get(servers[1], '/packages?limit=1');
    expect(hit.status).toBe(500);
    expect(hit.state).toBeNull();
    const after = await get(servers[0], '/packages?limit=1');
    expect(after.status).toBe(200);
    expect(after.state).toBeNull();
    expect((await admin(servers[0], '/faults')).body.armed).toEqual([]);
    expect(await repaired(servers[0])).toBeGreaterThanOrEqual(1);
    expect(lines.filter((l) => l.includes('unreachable'))).toEqual([]);
  });

  it('skips and counts a {} in the journal: verify reads the shared journal, not local state', async () => {
    const { servers, prefix } = await fleet();
    for (const server of servers) await get(server, '/packages?limit=1');
    // Entries go to Redis with the next turn of each instance: wait until both are there.
    for (let i = 0; i < 50 && (await raw.llen(`${prefix}journal`)) < 2; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await raw.lpush(`${prefix}journal`, '{}', '{"id":"x","atMs":"soon"}');
    const verified = await admin(servers[0], '/requests/verify', {
      match: { operationId: 'listPackages' },
      times: 2,
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.state).toBeNull();
    expect(verified.body.ok).toBe(true);
    expect(await repaired(servers[0])).toBeGreaterThanOrEqual(2);
  });

  it('skips and counts a record edit the record check refuses: its by-ID call is a 404, never a 500', async () => {
    const { servers, prefix } = await fleet();
    const edit = {
      op: 'put',
      family: 'products',
      id: 'MIN1',
      record: { productId: 'MIN1', applicationBlockDiagrams: 'none', images: 'none' },
    };
    await raw.rpush(`${prefix}records:edits`, JSON.stringify(edit));
    await raw.incr(`${prefix}records:version`);
    for (const server of servers) {
      const res = await get(server, '/products/MIN1');
      expect(res.status, res.text).toBe(404);
      expect(res.state).toBeNull();
    }
    expect(await repaired(servers[1])).toBeGreaterThanOrEqual(1);
  });

  it('refuses a stub or a fault added while Redis is away with 503, as a record edit', async () => {
    const { servers } = await fleet();
    await redis.stop();
    try {
      const stub = await admin(servers[0], '/stubs', {
        operationId: 'getProduct',
        patch: { images: [] },
      });
      expect(stub.status).toBe(503);
      expect(stub.body.error).toMatch(/unreachable: the stub was not added/);
      const fault = await admin(servers[0], '/faults', {
        operationId: 'listPackages',
        status: 500,
      });
      expect(fault.status).toBe(503);
      expect(fault.body.error).toMatch(/unreachable: the fault was not added/);
      expect((await admin(servers[0], '/stubs')).body.stubs).toEqual([]);
    } finally {
      await redis.resume();
    }
  }, 30_000);
});
