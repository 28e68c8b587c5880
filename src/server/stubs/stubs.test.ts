/**
 * @module stubs/stubs.test
 * Stubs the contract checks: a patch or a whole answer for the requests a match describes,
 * judged by the mock's own validators when added (documented and reference facts refuse, with
 * each pointer and rule named; inferred ones warn; an undeclared status refuses); `unchecked`
 * answers anything and the journal marks it; `times` counts down; the newest stub wins. In
 * process, on a port, and across two instances sharing a real redis-server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createMockApp,
  QaControlError,
  startMock,
  type MockAppHandle,
  type RunningMock,
} from '../../index.js';
import { redisAvailable, TestRedis } from '../../testing/redis-server.js';
import { startMockServer, type RunningServer } from '../listen.js';
import { DEMO, sharedDataset } from '../../testing/mock-app.js';

const TOKEN = 'qa';

describe('stubs in process', () => {
  let mock: MockAppHandle;
  let productId: string;
  const get = async (path: string) => {
    const res = await mock.fetch(
      new Request(`${mock.url}${path}`, { headers: { 'x-api-key': mock.keys.fullAccess } }),
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  beforeAll(async () => {
    mock = await createMockApp({ adminToken: TOKEN });
    const list = await get('/products?limit=2');
    productId = (list.body.data as { productId: string }[])[1].productId;
  });
  beforeEach(async () => {
    await mock.qa.removeStubs();
    await mock.qa.clearJournal();
  });

  it('patches one product to have no images; others and the journal show it', async () => {
    const stub = await mock.qa.stub({
      operationId: 'getProduct',
      match: { params: { product_id: productId } },
      patch: { images: [] },
    });
    expect(stub.id).toEqual(expect.any(String));
    expect(stub.warnings).toBeUndefined();
    const stubbed = await get(`/products/${encodeURIComponent(productId)}`);
    expect(stubbed.status).toBe(200);
    expect(stubbed.body.images).toEqual([]);
    expect(stubbed.body.productId).toBe(productId);
    const [entry] = await mock.qa.requests({ operationId: 'getProduct' });
    expect(entry.stub).toBe(stub.id);
    expect(entry.unchecked).toBeUndefined();
    expect(await mock.qa.stubs()).toEqual([stub]);
  });

  it('matches on a header the mock keeps: only that client gets the stub, and verify finds it', async () => {
    const asClient = async (agent: string) => {
      const res = await mock.fetch(
        new Request(`${mock.url}/products/${encodeURIComponent(productId)}`, {
          headers: { 'x-api-key': mock.keys.fullAccess, 'user-agent': agent },
        }),
      );
      return (await res.json()) as Record<string, unknown>;
    };
    await mock.qa.stub({
      operationId: 'getProduct',
      match: { params: { product_id: productId }, headers: { 'user-agent': 'my-app/2.0' } },
      patch: { images: [] },
    });
    expect((await asClient('my-app/2.0')).images).toEqual([]);
    expect((await asClient('other/1.0')).images).not.toEqual([]);
    await mock.qa.verify({ headers: { 'user-agent': 'my-app/2.0' } }, { times: 1 });
    // A header the mock does not keep could never match: refused where it enters.
    await expect(
      mock.qa.stub({
        operationId: 'getProduct',
        match: { headers: { 'x-api-key': 'k' } as never },
        patch: {},
      }),
    ).rejects.toThrow(/\/match\/headers\/x-api-key/);
  });

  it('takes a JSON Patch array too', async () => {
    await mock.qa.stub({
      operationId: 'getProduct',
      patch: [{ op: 'replace', path: '/images', value: [] }],
    });
    expect((await get(`/products/${encodeURIComponent(productId)}`)).body.images).toEqual([]);
  });

  it('refuses a patch that breaks a documented fact, naming the pointer and the rule', async () => {
    const refused = mock.qa.stub({ operationId: 'getProduct', patch: { images: 'none' } });
    await expect(refused).rejects.toBeInstanceOf(QaControlError);
    await expect(refused).rejects.toThrow(/"\/images" must be array \((documented|reference)\)/);
    expect(await mock.qa.stubs()).toEqual([]);
  });

  it('refuses a status the operation does not declare, and a whole answer that breaks the contract', async () => {
    await expect(
      mock.qa.stub({ operationId: 'getProduct', respond: { status: 418, body: {} } }),
    ).rejects.toThrow(/status 418 is not declared by getProduct/);
    await expect(
      mock.qa.stub({ operationId: 'getProduct', respond: { status: 200, body: { images: 3 } } }),
    ).rejects.toThrow(/\/respond.*"\/images"/);
    await expect(
      mock.qa.stub({ operationId: 'getProduct', match: { query: 'x' } as never, patch: {} }),
    ).rejects.toThrow(/\/match\/query/);
    await expect(
      mock.qa.stub({ operationId: 'getProduct', patch: {}, respond: { status: 200 } }),
    ).rejects.toThrow(/exactly one of patch/);
  });

  it('allows a broken inferred fact, with a warning', async () => {
    const stub = await mock.qa.stub({ operationId: 'getProductPart', patch: { BOPN: 5 } });
    expect(stub.warnings).toEqual([expect.stringMatching(/"\/BOPN" .*\(inferred\)/)]);
  });

  it('answers anything unchecked, and the journal marks it', async () => {
    const stub = await mock.qa.stub({
      operationId: 'listProducts',
      respond: { status: 200, body: { whatever: true }, headers: { 'x-test': 'yes' } },
      unchecked: true,
    });
    const res = await mock.fetch(
      new Request(`${mock.url}/products`, { headers: { 'x-api-key': mock.keys.fullAccess } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-test')).toBe('yes');
    expect(await res.json()).toEqual({ whatever: true });
    const [entry] = await mock.qa.requests();
    expect(entry).toMatchObject({ stub: stub.id, unchecked: true });
  });

  it('leaves the dataset answer alone where the patch does not apply, and the journal says why', async () => {
    const stub = await mock.qa.stub({
      operationId: 'listProducts',
      patch: [
        { op: 'test', path: '/pagination/offset', value: 0 },
        { op: 'replace', path: '/data', value: [] },
        // An empty page says so: the suite's page arithmetic holds a stub's page too.
        { op: 'replace', path: '/pagination/total', value: 0 },
        { op: 'replace', path: '/pagination/has_more', value: false },
      ],
    });
    expect((await get('/products?limit=2')).body.data).toEqual([]);
    const page2 = await get('/products?limit=2&offset=1');
    expect(page2.status).toBe(200);
    expect(page2.body.data).toHaveLength(2);
    const [entry] = await mock.qa.requests({ operationId: 'listProducts', query: { offset: 1 } });
    expect(entry.stub).toBe(stub.id);
    expect(entry.stubSkipped).toMatch(/the patch does not apply: \/0: test failed/);
  });

  it('answers `times` requests then is gone; the newest stub wins', async () => {
    await mock.qa.stub({ operationId: 'getProduct', patch: { title: 'older' } });
    await mock.qa.stub({ operationId: 'getProduct', patch: { title: 'newer' }, times: 2 });
    const path = `/products/${encodeURIComponent(productId)}`;
    const titles = [];
    for (let i = 0; i < 3; i++) titles.push((await get(path)).body.title);
    expect(titles).toEqual(['newer', 'newer', 'older']);
    expect(await mock.qa.stubs()).toHaveLength(1);
    expect(await mock.qa.removeStubs()).toBe(1);
    expect((await get(path)).body.title).not.toBe('older');
  });
});

describe('stubs on a port (admin API)', () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await startMock({ adminToken: TOKEN });
  });
  afterAll(() => mock?.close());

  it('POST, GET and DELETE /__mock/stubs', async () => {
    const headers = { 'x-mock-admin-token': TOKEN, 'content-type': 'application/json' };
    const added = await fetch(`${mock.origin}/__mock/stubs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        operationId: 'listPackages',
        match: { query: { limit: 1 } },
        respond: { status: 500, body: { error: 'none here' } },
      }),
    });
    const text = await added.text();
    expect(added.status, text).toBe(201);
    const { id } = JSON.parse(text) as { id: string };
    const hit = await fetch(`${mock.url}/packages?limit=1`, {
      headers: { 'x-api-key': mock.keys.fullAccess },
    });
    expect(hit.status).toBe(500);
    expect(await hit.json()).toEqual({ error: 'none here' });
    const listed = await fetch(`${mock.origin}/__mock/stubs`, { headers });
    expect(((await listed.json()) as { stubs: { id: string }[] }).stubs.map((s) => s.id)).toEqual([
      id,
    ]);
    const removed = await fetch(`${mock.origin}/__mock/stubs/${id}`, { method: 'DELETE', headers });
    expect(await removed.json()).toEqual({ removed: 1 });
    expect(
      (await fetch(`${mock.origin}/__mock/stubs/${id}`, { method: 'DELETE', headers })).status,
    ).toBe(404);
    const refused = await fetch(`${mock.origin}/__mock/stubs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ operationId: ['listPackages'], respond: { status: 200 } }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('/operationId');
  });
});

describe.runIf(redisAvailable())('stubs across two instances sharing Redis', () => {
  let redis: TestRedis;
  const fleet: RunningServer[] = [];
  beforeAll(async () => {
    redis = await TestRedis.start();
    for (const instanceId of ['a', 'b'])
      fleet.push(
        await startMockServer({
          datasets: { production: sharedDataset() },
          adminToken: TOKEN,
          stateUrl: redis.url,
          stateOptions: { commandTimeoutMs: 5000 },
          instanceId,
        }),
      );
  });
  afterAll(async () => {
    for (const server of fleet) await server.close();
    await redis?.stop();
  });

  it('a stub added on one answers on the other, its times counted once across both', async () => {
    const added = await fetch(`${fleet[0].origin}/__mock/stubs`, {
      method: 'POST',
      headers: { 'x-mock-admin-token': TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({
        operationId: 'listPackages',
        patch: { data: [], pagination: { total: 0, has_more: false } },
        times: 2,
      }),
    });
    expect(added.status, await added.clone().text()).toBe(201);
    const sizes = [];
    for (const server of [fleet[1], fleet[0], fleet[1]]) {
      const res = await fetch(`${server.url}/packages?limit=1`, {
        headers: { 'x-api-key': DEMO.unlimited },
      });
      sizes.push(((await res.json()) as { data: unknown[] }).data.length);
    }
    expect(sizes).toEqual([0, 0, 1]);
  });
});
