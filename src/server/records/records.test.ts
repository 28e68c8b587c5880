/**
 * @module records.test
 * Records a test adds, changes or removes (issue 29 item 2), through the public library on a real
 * port and in process: every answer sees the change at once (by-ID, list total, a filter, a sort
 * position, a search, cross-reference), untouched records keep their bytes, a record breaking a
 * documented fact is refused naming the pointer and rule, and a reset brings the seed back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockApp, QaControlError, startMock, type RunningMock } from '../../index.js';
import type { MockAppHandle } from '../../api/types.js';
import { ADMIN_TOKEN_HEADER } from '../admin/admin.js';

type Mock = Pick<MockAppHandle, 'url' | 'origin' | 'keys' | 'examples' | 'qa'> & {
  send(request: Request): Promise<Response>;
};

const ADMIN_TOKEN = 'records-test-token';
let onPort: RunningMock;
let inProcess: MockAppHandle;
beforeAll(async () => {
  onPort = await startMock({ adminToken: ADMIN_TOKEN });
  inProcess = await createMockApp({ adminToken: ADMIN_TOKEN });
});
afterAll(() => onPort?.close());

const transports: [string, () => Mock][] = [
  ['on a port', () => ({ ...onPort, send: (r) => fetch(r) })],
  ['in process', () => ({ ...inProcess, send: (r) => inProcess.fetch(r) })],
];

describe.each(transports)('record edits %s', (_name, mockOf) => {
  let mock: Mock;
  const text = async (path: string, body?: unknown) => {
    const response = await mock.send(
      new Request(`${mock.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'x-api-key': mock.keys.fullAccess, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: response.status, text: await response.text() };
  };
  const json = async <T = Record<string, unknown>>(path: string, body?: unknown) => {
    const { status, text: body_ } = await text(path, body);
    expect(status, `${path}: ${body_.slice(0, 300)}`).toBe(200);
    return JSON.parse(body_) as T;
  };
  const total = async (path: string) =>
    (await json<{ pagination: { total: number } }>(path)).pagination.total;
  const enc = encodeURIComponent;

  beforeAll(async () => {
    mock = mockOf();
    await mock.qa.reset();
  });

  it('a put part is in by-ID, the list total, a filter, a sort position and a search; untouched bytes stay', async () => {
    const [seedPartId] = mock.examples.ids.productParts;
    const untouched = `/products/${enc(mock.examples.ids.products[1])}`;
    const untouchedBefore = await text(untouched);
    const seedPart = await json(`/product-parts/${enc(seedPartId)}`);
    const productId = seedPart.genericId as string;
    const partsBefore = await total('/product-parts?limit=1');
    const searchBefore = await json<{
      data: { orderableId: string }[];
      pagination: { total: number };
    }>('/product-parts/search', { productId, limit: 100 });

    const mine = {
      ...seedPart,
      orderableId: 'AAAA-TEST#PBF',
      description: 'Made by a test',
      // As copied from the live service: its base, and an identifier left unencoded.
      genericUrl: `https://live.example.com/web-data/v1/products/${productId}`,
      featuredDocument: { documentTitle: 'A note', documentUrl: '/documents/D 1#x' },
    };
    const put = await mock.qa.records.put('productParts', mine);
    expect(put).toMatchObject({ family: 'productParts', id: 'AAAA-TEST#PBF', created: true });

    const served = await json('/product-parts/AAAA-TEST%23PBF');
    expect(served.description).toBe('Made by a test');
    expect(served.genericUrl).toBe(`${mock.url}/products/${enc(productId)}`);
    expect(served.featuredDocument).toEqual({
      documentTitle: 'A note',
      documentUrl: '/documents/D%201%23x',
    });
    expect(await total('/product-parts?limit=1')).toBe(partsBefore + 1);
    const filtered = await json<{ data: { orderableId: string }[] }>(
      '/product-parts?part_number=aaaa-test%23pbf',
    );
    expect(filtered.data.map((p) => p.orderableId)).toEqual(['AAAA-TEST#PBF']);
    const first = await json<{ data: { orderableId: string }[] }>(
      '/product-parts?order=part_number&orderDirection=asc&limit=1',
    );
    expect(first.data[0].orderableId).toBe('AAAA-TEST#PBF');
    const searched = await json<{
      data: { orderableId: string; href: string }[];
      pagination: { total: number };
    }>('/product-parts/search', { productId, limit: 100 });
    expect(searched.pagination.total).toBe(searchBefore.pagination.total + 1);
    expect(searched.data.find((p) => p.orderableId === 'AAAA-TEST#PBF')?.href).toBe(
      '/product-parts/AAAA-TEST%23PBF',
    );
    expect(await text(untouched)).toEqual(untouchedBefore);
  });

  it('an edited part shows in cross-reference; a removed one is a 404, drops the total and leaves cross-reference', async () => {
    const partNumber = mock.examples.crossReference.partNumbers[0];
    type Answer = {
      data: { results: { orderableId?: string; status: string; description: string }[] }[];
    };
    const answer = await json<Answer>('/product-parts/cross-reference', {
      partNumbers: [partNumber],
    });
    const orderableId = answer.data[0].results.find((r) => r.orderableId)!.orderableId!;
    const part = await json(`/product-parts/${enc(orderableId)}`);
    const totalBefore = await total('/product-parts?limit=1');

    await mock.qa.records.put('productParts', {
      ...part,
      status: 'Obsolete',
      description: 'Edited by a test',
    });
    const edited = await json<Answer>('/product-parts/cross-reference', {
      partNumbers: [partNumber],
    });
    expect(edited.data[0].results.find((r) => r.orderableId === orderableId)).toMatchObject({
      status: 'Obsolete',
      description: 'Edited by a test',
    });
    expect(await total('/product-parts?part_status=Obsolete&part_number=' + enc(orderableId))).toBe(
      1,
    );

    await mock.qa.records.remove('productParts', orderableId);
    expect((await text(`/product-parts/${enc(orderableId)}`)).status).toBe(404);
    expect(await total('/product-parts?limit=1')).toBe(totalBefore - 1);
    const gone = await json<Answer>('/product-parts/cross-reference', {
      partNumbers: [partNumber],
    });
    expect(gone.data[0].results.map((r) => r.orderableId)).not.toContain(orderableId);
    await expect(mock.qa.records.remove('productParts', orderableId)).rejects.toMatchObject({
      status: 404,
    });
  });

  it('a document put is found by its DCP id and by a prefix filter, with its hrefs built as ours', async () => {
    const [dcp] = mock.examples.ids.documents;
    const seed = await json(`/documents/${dcp}`);
    const mine = {
      ...seed,
      agileId: 'TEST-1',
      dcpDocumentId: 'DTEST1',
      href: 'https://live.example.com/web-data/v1/documents/DTEST1',
      translation: [],
    };
    await mock.qa.records.put('documents', mine);
    const got = await json('/documents/DTEST1');
    expect(got.agileId).toBe('TEST-1');
    expect(got.href).toBe(`${mock.url}/documents/DTEST1`);
    const listed = await json<{ data: { agileId: string }[] }>(
      '/documents?dcpDocumentIdStartsWith=dtest',
    );
    expect(listed.data.map((d) => d.agileId)).toEqual(['TEST-1']);
    await expect(mock.qa.records.put('documents', { ...mine, agileId: 'TEST-2' })).rejects.toThrow(
      /"\/dcpDocumentId" unique among documents/,
    );
  });

  it('a record breaking a documented fact is refused, naming the pointer, the rule and the kind', async () => {
    const refused = mock.qa.records.put('products', { productId: 'P-TEST', title: 3, images: 'x' });
    await expect(refused).rejects.toBeInstanceOf(QaControlError);
    await expect(refused).rejects.toThrow(/"\/title" type: string \(documented\)/);
    await expect(refused).rejects.toThrow(/"\/images" type: array \(documented\)/);
    expect((await text('/products/P-TEST')).status).toBe(404);
    await expect(mock.qa.records.put('gizmos' as never, { id: 'x' })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('hostile records: a __proto__ member stays a member, a deep nesting is a 400, never a 500', async () => {
    const [code] = mock.examples.ids.packages;
    const pkg = await json(`/packages/${enc(code)}`);
    const raw = (body: string) =>
      mock.send(
        new Request(`${mock.origin}/__mock/records/packages`, {
          method: 'POST',
          headers: { [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN, 'content-type': 'application/json' },
          body,
        }),
      );
    const proto = await raw(
      JSON.stringify({ ...pkg, packageCode: 'PKG-PROTO' }).replace(
        '{',
        '{"__proto__":{"polluted":1},',
      ),
    );
    expect(proto.status).toBe(201);
    const served = await text('/packages/PKG-PROTO');
    expect(served.text).toContain('"__proto__":{"polluted":1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const deep = await raw(`{"packageCode":"D","x":${'['.repeat(20000)}${']'.repeat(20000)}}`);
    expect(deep.status).toBe(400);
    expect(await deep.text()).toContain('nesting depth');
    await mock.qa.reset();
  });

  it('the admin API: PUT with the identifier in the path, GET lists the edits, DELETE removes', async () => {
    const admin = (method: string, path: string, body?: unknown) =>
      mock.send(
        new Request(`${mock.origin}/__mock${path}`, {
          method,
          headers: { [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    const [code] = mock.examples.ids.packages;
    const pkg = await json(`/packages/${enc(code)}`);
    const wrongId = await admin('PUT', `/records/packages/OTHER`, pkg);
    expect(wrongId.status).toBe(400);
    expect(await wrongId.json()).toMatchObject({
      details: [{ name: '/packageCode', rule: expect.stringContaining('OTHER') as unknown }],
    });
    const bad = await admin('PUT', `/records/packages/${enc(code)}`, {
      ...pkg,
      leadCount: 'x',
      specifications: 4,
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('/specifications');
    const ok = await admin('PUT', `/records/packages/${enc(code)}`, { ...pkg, title: 'Retitled' });
    expect(ok.status).toBe(200);
    expect((await json(`/packages/${enc(code)}`)).title).toBe('Retitled');
    const edits = (await (await admin('GET', '/records')).json()) as { edits: { id: string }[] };
    expect(edits.edits.map((e) => e.id)).toContain(code);
    expect((await admin('DELETE', `/records/packages/${enc(code)}`)).status).toBe(200);
    expect((await text(`/packages/${enc(code)}`)).status).toBe(404);
  });

  it('an added record is answered as itself after a reset moved the records added with it', async () => {
    await mock.qa.reset();
    const pkg = await json(`/packages/${enc(mock.examples.ids.packages[0])}`);
    const put = (code: string) => mock.qa.records.put('packages', { ...pkg, packageCode: code });
    await put('PKG-A');
    expect((await json('/packages/PKG-A')).packageCode).toBe('PKG-A');
    await mock.qa.reset();
    await put('PKG-B');
    expect((await json('/packages/PKG-B')).packageCode).toBe('PKG-B');
    // PKG-A now comes after PKG-B: its answer must not be the one cached for its old place.
    await put('PKG-A');
    expect((await json('/packages/PKG-A')).packageCode).toBe('PKG-A');
    expect((await json('/packages/PKG-B')).packageCode).toBe('PKG-B');
    await mock.qa.reset();
  });

  it('reset brings back the seed: edited bytes, totals, added and removed records', async () => {
    await mock.qa.reset();
    const [id] = mock.examples.ids.boardsKits;
    const path = `/boards-kits/${enc(id)}`;
    const seedBytes = await text(path);
    const seedTotal = await total('/boards-kits?limit=1');
    const board = JSON.parse(seedBytes.text) as Record<string, unknown>;
    await mock.qa.records.put('boardsKits', { ...board, title: 'Changed' });
    await mock.qa.records.put('boardsKits', { ...board, boardKitId: 'NEW-BOARD' });
    await mock.qa.records.remove('boardsKits', mock.examples.ids.boardsKits[1]);
    expect(await total('/boards-kits?limit=1')).toBe(seedTotal);
    expect(await total('/boards-kits?boardKitId=new-board')).toBe(1);
    await mock.qa.reset();
    expect(await text(path)).toEqual(seedBytes);
    expect(await total('/boards-kits?limit=1')).toBe(seedTotal);
    expect((await text('/boards-kits/NEW-BOARD')).status).toBe(404);
    expect(await mock.qa.records.list()).toEqual([]);
  });
});

describe('records at start', () => {
  it('startMock({ records }) serves them, and they outlive a reset', async () => {
    const seedMock = await createMockApp();
    const [id] = seedMock.examples.ids.softwareTools;
    const get = (mock: MockAppHandle, path: string) =>
      mock.fetch(
        new Request(`${mock.url}${path}`, { headers: { 'x-api-key': mock.keys.fullAccess } }),
      );
    const tool = (await (
      await get(seedMock, `/software-tools/${encodeURIComponent(id)}`)
    ).json()) as Record<string, unknown>;
    const mock = await createMockApp({
      records: { softwareTools: [{ ...tool, softwareToolName: 'Test Tool Σ' }] },
    });
    const path = `/software-tools/${encodeURIComponent('Test Tool Σ')}`;
    expect((await get(mock, path)).status).toBe(200);
    await mock.qa.reset();
    expect((await get(mock, path)).status).toBe(200);
  });

  it('a bad record at start is refused, naming the option, the pointer and the rule', async () => {
    await expect(
      createMockApp({ records: { products: [{ productId: 'X', title: 5 }] } }),
    ).rejects.toThrow(/records option: "\/products\/0\/title" type: string \(documented\)/);
  });
});

describe('what an edit invalidates', () => {
  it("keeps other families' indexes and untouched records' cached bodies; drops the touched ones", async () => {
    const { createApp } = await import('../app.js');
    const app = await createApp({ adminToken: ADMIN_TOKEN });
    const [start] = app.state.apis;
    const headers = { 'x-api-key': 'demo-production-key' };
    const products = start.dataset.products;
    const ids = [products.id(0), products.id(1)];
    for (const id of ids)
      await app.request(`/web-data/v1/products/${encodeURIComponent(id)}`, { headers });
    await app.request('/web-data/v1/packages?limit=2', { headers });
    const before = { ...app.state.records.served(start).listings };
    const record = products.record(0);
    await app.state.records.put('products', { ...record, title: 'Edited' });
    const api = app.state.records.served(start);
    // The environment built at start is left as it was; the edits made a new one.
    expect(api).not.toBe(start);
    expect(start.dataset.products.record(0)).toEqual(record);
    expect(api.listings.packages).toBe(before.packages);
    expect(api.listings.productParts).toBe(before.productParts);
    expect(api.listings.products).not.toBe(before.products);
    // getProduct serves the 1.2.0 shape at the newest release, cached per position.
    expect(
      [...api.encoded.keys()].filter((k) => /^(record:products|product-1\.2\.0):/.test(k)),
    ).toEqual(['product-1.2.0:1']);
    expect([...api.encoded.keys()].some((k) => k.startsWith('list:listPackages:'))).toBe(true);
  });
});
