/**
 * @module faults/fault-match.test
 * A fault hits the request you mean: `match` narrows it by operation, path parameters, the parsed
 * query, a body subset and the key (by name, purpose or secret, kept as the name). Memory and
 * Redis agree on every case, since both decide with the one matcher (state/stubs/match.ts). Wrong-typed
 * match fields are refused with the field named.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockApp, QaControlError } from '../../index.js';
import { redisAvailable, TestRedis } from '../../testing/redis-server.js';
import type { MockApp } from '../app.js';
import { call, DEMO, testApp } from '../../testing/mock-app.js';

const TOKEN = 'qa';
const admin = { 'x-mock-admin-token': TOKEN };

interface Example {
  path: string;
  body?: unknown;
}

async function examples(app: MockApp): Promise<Record<string, Example>> {
  const res = await app.request('http://localhost/examples.json');
  return ((await res.json()) as { operations: Record<string, Example> }).operations;
}

/** Arms `match` for one 500, sends `request`, says whether the fault fired (and clears faults). */
async function fires(
  app: MockApp,
  match: unknown,
  request: { path: string; body?: unknown; key?: string },
): Promise<boolean> {
  const armed = await call(app, '/__mock/scenarios', {
    key: null,
    headers: admin,
    body: { match, status: 500 },
  });
  expect(armed.status, armed.text).toBe(201);
  const res = await call(app, request.path, { body: request.body, key: request.key });
  await call(app, '/__mock/scenarios', { key: null, headers: admin, method: 'DELETE' });
  return res.status === 500;
}

describe('a fault with a match', async () => {
  const app = await testApp({ adminToken: TOKEN });
  const ops = await examples(app);
  const search = ops.searchProductParts;
  const searchBody = search.body as Record<string, unknown>;
  beforeEach(async () => {
    await call(app, '/__mock/scenarios', { key: null, headers: admin, method: 'DELETE' });
  });

  it('makes only page 2 of a query fail', async () => {
    const armed = await call(app, '/__mock/scenarios', {
      key: null,
      headers: admin,
      body: {
        match: { operationId: 'listProducts', query: { offset: 1, limit: 5 } },
        status: 500,
        count: 3,
      },
    });
    expect(armed.status, armed.text).toBe(201);
    expect((await call(app, '/products?limit=5')).status).toBe(200);
    expect((await call(app, '/products?limit=5&offset=2')).status).toBe(200);
    // offset is a page number (the document): page 2 is offset=1.
    expect((await call(app, '/products?limit=5&offset=1')).status).toBe(500);
    // The query as the mock parses it: the order of parameters and a leading zero do not matter.
    expect((await call(app, '/products?offset=01&limit=5')).status).toBe(500);
  });

  it('matches a body subset, a path parameter and a key by purpose', async () => {
    expect(
      await fires(
        app,
        { operationId: 'searchProductParts', body: { productId: searchBody.productId } },
        { ...search, body: searchBody },
      ),
    ).toBe(true);
    expect(
      await fires(
        app,
        { operationId: 'searchProductParts', body: { productId: 'none-such' } },
        search,
      ),
    ).toBe(false);
    // The body as the client sent it, as verify reads it: a schema default is not a sent member.
    const { limit, ...withoutLimit } = searchBody;
    expect(limit).toBeUndefined();
    expect(
      await fires(
        app,
        { operationId: 'searchProductParts', body: { limit: 10 } },
        { ...search, body: withoutLimit },
      ),
    ).toBe(false);
    expect(
      await fires(
        app,
        { operationId: 'searchProductParts', body: { limit: 10 } },
        { ...search, body: { ...withoutLimit, limit: 10 } },
      ),
    ).toBe(true);
    const byId = ops.getProduct;
    const productId = Object.values(
      (byId as unknown as { pathParameters: Record<string, string> }).pathParameters,
    )[0];
    expect(
      await fires(app, { operationId: 'getProduct', params: { product_id: productId } }, byId),
    ).toBe(true);
    expect(
      await fires(
        app,
        { operationId: 'getProduct', params: { product_id: `${productId}x` } },
        byId,
      ),
    ).toBe(false);
  });

  it('keeps a key given by its secret as the key name, never the secret', async () => {
    const armed = await call(app, '/__mock/scenarios', {
      key: null,
      headers: admin,
      body: { match: { key: DEMO.production }, status: 500 },
    });
    expect(armed.status).toBe(201);
    expect(armed.text).not.toContain(DEMO.production);
    expect(armed.body.match).toEqual({ key: 'demo-production' });
    expect((await call(app, '/products?limit=1', { key: DEMO.unlimited })).status).toBe(200);
    expect((await call(app, '/products?limit=1', { key: DEMO.production })).status).toBe(500);
  });

  it('refuses wrong-typed match fields, naming each', async () => {
    const res = await call(app, '/__mock/scenarios', {
      key: null,
      headers: admin,
      body: {
        match: { operationId: ['listProducts'], key: 42, query: 'offset=5', params: [] },
        status: 500,
      },
    });
    expect(res.status).toBe(400);
    for (const field of ['/match/operationId', '/match/key', '/match/query', '/match/params'])
      expect(res.body.error).toContain(field);
    const unknownKey = await call(app, '/__mock/scenarios', {
      key: null,
      headers: admin,
      body: { match: { key: 'not-a-key-secret-value' }, status: 500 },
    });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.text).toContain('/match/key');
    expect(unknownKey.text).not.toContain('not-a-key-secret-value');
    const twice = await call(app, '/__mock/scenarios', {
      key: null,
      headers: admin,
      body: { operationId: 'listProducts', match: { operationId: 'getProduct' }, status: 500 },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toContain('/operationId');
    expect((await call(app, '/products?limit=1')).status).toBe(200);
  });
});

describe('armFault from the library with a match', () => {
  it('fails page 2 only, and rejects a wrong-typed match naming the field', async () => {
    const mock = await createMockApp({ adminToken: TOKEN });
    await mock.qa.armFault({
      match: { operationId: 'listProducts', query: { offset: 1 } },
      status: 500,
    });
    const key = mock.keys.fullAccess;
    const get = (q: string) =>
      mock.fetch(new Request(`${mock.url}/products?${q}`, { headers: { 'x-api-key': key } }));
    expect((await get('limit=5')).status).toBe(200);
    expect((await get('limit=5&offset=1')).status).toBe(500);
    const refused = mock.qa.armFault({
      operationId: 'listProducts',
      match: { query: 'offset=5' as unknown as { offset: number } },
      status: 500,
    });
    await expect(refused).rejects.toBeInstanceOf(QaControlError);
    await expect(refused).rejects.toThrow(/\/match\/query/);
  });
});

describe.runIf(redisAvailable())('memory and Redis agree on every match case', () => {
  let redis: TestRedis;
  let memory: MockApp;
  let shared: MockApp;
  beforeAll(async () => {
    redis = await TestRedis.start();
    memory = await testApp({ adminToken: TOKEN });
    shared = await testApp({
      adminToken: TOKEN,
      stateUrl: redis.url,
      stateOptions: { commandTimeoutMs: 5000 },
    });
  });
  afterAll(async () => {
    await shared?.state.stores.close();
    await redis?.stop();
  });

  it('fires for exactly the same cases', async () => {
    const ops = await examples(memory);
    const search = ops.searchProductParts;
    const body = search.body as Record<string, unknown>;
    const cases: [unknown, { path: string; body?: unknown; key?: string }][] = [
      [{}, ops.listProducts],
      [{ operationId: 'listProducts' }, ops.listProducts],
      [{ operationId: 'getProduct' }, ops.listProducts],
      [{ operationId: 'listProducts', query: { offset: 5 } }, { path: '/products?offset=5' }],
      [{ operationId: 'listProducts', query: { offset: '5' } }, { path: '/products?offset=5' }],
      [{ operationId: 'listProducts', query: { offset: 6 } }, { path: '/products?offset=5' }],
      [{ operationId: 'listProducts', query: { limit: 10 } }, { path: '/products' }],
      [{ operationId: 'searchProductParts', body: { productId: body.productId } }, search],
      [{ operationId: 'searchProductParts', body: { productId: 'x' } }, search],
      [{ operationId: 'searchProductParts', body: body }, search],
      [{ key: 'demo-production' }, { ...ops.listProducts, key: DEMO.production }],
      [{ key: 'demo-production' }, { ...ops.listProducts, key: DEMO.unlimited }],
      [{ key: 'fullAccess', operationId: 'listPackages' }, ops.listPackages],
    ];
    const results: [boolean, boolean][] = [];
    for (const [match, request] of cases)
      results.push([await fires(memory, match, request), await fires(shared, match, request)]);
    for (const [i, [inMemory, onRedis]] of results.entries())
      expect(onRedis, JSON.stringify(cases[i][0])).toBe(inMemory);
    expect(results.map(([m]) => m)).toEqual([
      true,
      true,
      false,
      true,
      true,
      false,
      true,
      true,
      false,
      true,
      true,
      false,
      false,
    ]);
  });
});
