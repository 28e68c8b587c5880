/**
 * @module stubs/judge.test
 * Issue 36, principle 1: what the double accepts is what the suite would pass. Each reproduction
 * of "stubs and records that pass the check, then break the contract", in process: a `__proto__`
 * member or path, a patch nested 2,000 deep, a 1xx status even unchecked, a stub's page, identity,
 * href, headers and 429 that the suite's own judgements fail, and records the operations serving
 * them could not serve whole. Each is refused with a pointer named, or (a whole answer for
 * another record) never served.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMockApp, QaControlError, type MockAppHandle } from '../../index.js';
import { call, testApp } from '../../testing/mock-app.js';
import { jsonPatch, mergePatch } from './json-patch.js';

const TOKEN = 'qa';

/** A JSON value nested `depth` levels deep. */
function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe('patches define members and are depth-bounded', () => {
  it('a merge patch member named __proto__ is an ordinary member, never the prototype', () => {
    const patched = mergePatch({ a: 1 }, JSON.parse('{"__proto__":{"x":1}}')) as object;
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    expect(Object.keys(patched)).toEqual(['a', '__proto__']);
    expect(JSON.stringify(patched)).toBe('{"a":1,"__proto__":{"x":1}}');
  });

  it('a JSON Patch add at /__proto__ adds a member', () => {
    const patched = jsonPatch({ a: 1 }, [{ op: 'add', path: '/__proto__', value: { x: 1 } }]);
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    expect(JSON.stringify(patched)).toBe('{"a":1,"__proto__":{"x":1}}');
  });

  it('refuses a patch, a value or a path deeper than the bound, naming it', () => {
    expect(() => mergePatch({}, nested(2000))).toThrow(/nests deeper than 32 levels/);
    expect(() => jsonPatch({}, [{ op: 'add', path: '/a', value: nested(2000) }])).toThrow(
      /^\/0\/value: nests deeper than 32/,
    );
    const path = `/${Array.from({ length: 2000 }, () => 'a').join('/')}`;
    expect(() => jsonPatch({}, [{ op: 'add', path, value: 1 }])).toThrow(
      /^\/0\/path: nests deeper than 32/,
    );
    // Copies that double an answer are bounded too.
    const doubling = Array.from({ length: 40 }, (_, i) => ({
      op: 'copy',
      from: '/a',
      path: `/b${i}`,
    }));
    expect(() =>
      jsonPatch({ a: Array.from({ length: 10_000 }, () => 0) }, [
        ...doubling,
        ...doubling.map((o, i) => ({ ...o, path: `/c${i}` })),
      ]),
    ).toThrow(/the copies add more than/);
  });
});

describe('stubs the suite would fail are refused', () => {
  let mock: MockAppHandle;
  let productId: string;
  const stub = (body: Record<string, unknown>) => mock.qa.stub(body as never);
  const refusal = async (body: Record<string, unknown>): Promise<string> => {
    try {
      await stub(body);
    } catch (error) {
      expect(error).toBeInstanceOf(QaControlError);
      return (error as Error).message;
    }
    throw new Error(`accepted: ${JSON.stringify(body).slice(0, 200)}`);
  };
  const get = async (path: string) => {
    const res = await mock.fetch(
      new Request(`${mock.url}${path}`, { headers: { 'x-api-key': mock.keys.fullAccess } }),
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  beforeAll(async () => {
    mock = await createMockApp({ adminToken: TOKEN });
    productId = mock.examples.ids.products[0];
  });
  beforeEach(async () => {
    await mock.qa.reset();
  });

  it('a __proto__ member in a merge patch is a member: the required fields it removed are named', async () => {
    const message = await refusal(
      JSON.parse(
        '{"operationId":"getProduct","patch":{"productId":null,"applicationBlockDiagrams":null,"__proto__":{"productId":"x","applicationBlockDiagrams":[]}}}',
      ) as Record<string, unknown>,
    );
    expect(message).toMatch(/"\/productId" is required/);
    expect(message).toMatch(/"\/applicationBlockDiagrams" is required/);
  });

  it('a JSON Patch add at /__proto__ adds a member the answer does not declare, no prototype', async () => {
    const added = await stub({
      operationId: 'getProduct',
      match: { params: { product_id: productId } },
      patch: [{ op: 'add', path: '/__proto__', value: { productId: 'x' } }],
    });
    expect(added.id).toEqual(expect.any(String));
    const served = await get(`/products/${encodeURIComponent(productId)}`);
    expect(served.status).toBe(200);
    expect(served.body.productId).toBe(productId);
    expect(Object.getOwnPropertyNames(served.body)).toContain('__proto__');
  });

  it('a patch nested 2,000 deep is a 400 naming the bound, not a 500', async () => {
    const message = await refusal({
      operationId: 'getProduct',
      patch: { additionalDetails: nested(2000) },
    });
    expect(message).toMatch(/400 .*"\/patch".*nests deeper than 32 levels/);
    const array = await refusal({
      operationId: 'getProduct',
      patch: [{ op: 'add', path: '/additionalDetails', value: nested(2000) }],
    });
    expect(array).toMatch(/400 .*"\/patch".*nests deeper than 32 levels/);
  });

  it.each([100, 101, 199])('status %i is refused even unchecked', async (status) => {
    const message = await refusal({
      operationId: 'getProduct',
      respond: { status, body: {} },
      unchecked: true,
    });
    expect(message).toMatch(/"\/respond\/status".*a final HTTP status \(200-599/);
  });

  it('a page whose arithmetic breaks is refused, naming each pointer', async () => {
    const page = await get('/products?limit=3');
    const message = await refusal({
      operationId: 'listProducts',
      match: { query: { limit: 3 } },
      respond: {
        status: 200,
        body: { ...page.body, pagination: { total: 0, has_more: true, offset: 999, limit: 1 } },
      },
    });
    expect(message).toMatch(/"\/pagination\/limit" requested limit not honoured/);
    expect(message).toMatch(/"\/pagination\/offset" pagination.offset is not the items skipped/);
    expect(message).toMatch(/"\/data" page holds the wrong number of items/);
    expect(message).toMatch(/"\/pagination\/has_more" has_more disagrees/);
    // The same through a patch of the dataset's page.
    const patched = await refusal({
      operationId: 'listProducts',
      patch: { pagination: { total: 0, has_more: true, offset: 999, limit: 1 } },
    });
    expect(patched).toMatch(/"\/pagination\/has_more" has_more disagrees/);
  });

  it('an answer naming another record than the path, or an href that leads nowhere, is refused', async () => {
    const product = await get(`/products/${encodeURIComponent(productId)}`);
    const other = await refusal({
      operationId: 'getProduct',
      match: { params: { product_id: productId } },
      respond: { status: 200, body: { ...product.body, productId: 'SOMETHING-ELSE' } },
    });
    expect(other).toMatch(/does not carry the requested identifier/);
    const patched = await refusal({ operationId: 'getProduct', patch: { productId: 'ELSE' } });
    expect(patched).toMatch(/does not carry the requested identifier/);
    const nowhere = await refusal({
      operationId: 'getProduct',
      patch: { relatedProducts: [{ productId: 'NOPE', href: '/product-parts/NOPE' }] },
    });
    expect(nowhere).toMatch(
      /"\/relatedProducts\/0\/href" href "\/product-parts\/NOPE" does not resolve: GET getProductPart answers 404/,
    );
    const unknown = await refusal({
      operationId: 'getProduct',
      patch: { relatedProducts: [{ productId: 'X', href: '/nowhere/X' }] },
    });
    expect(unknown).toMatch(
      /"\/relatedProducts\/0\/href" href path \/nowhere\/X matches no operation/,
    );
  });

  it('a whole answer for one record is never served for another', async () => {
    const product = await get(`/products/${encodeURIComponent(productId)}`);
    const added = await stub({
      operationId: 'getProduct',
      respond: { status: 200, body: { ...product.body, title: 'Stubbed' } },
    });
    expect((await get(`/products/${encodeURIComponent(productId)}`)).body.title).toBe('Stubbed');
    const another = mock.examples.ids.products[1];
    const served = await get(`/products/${encodeURIComponent(another)}`);
    expect(served.body.productId).toBe(another);
    expect(served.body.title).not.toBe('Stubbed');
    const [entry] = await mock.qa.requests({ operationId: 'getProduct' });
    expect(entry.stub).toBe(added.id);
    expect(entry.stubSkipped).toMatch(/does not carry the requested identifier/);
  });

  it.each([
    [
      'content-type',
      'text/html',
      /"header:content-type" content type text\/html is not the declared one/,
    ],
    [
      'content-encoding',
      'gzip',
      /"header:content-encoding" header content-encoding is not one the service sends/,
    ],
    ['x-ratelimit-remaining', '-5', /"header:x-ratelimit-remaining" .*must be >= 0/],
    ['set-cookie', 'a=b', /"header:set-cookie" header set-cookie is not one the service sends/],
    [
      'access-control-allow-origin',
      '*',
      /"header:access-control-allow-origin" header access-control-allow-origin is not one/,
    ],
  ])('a whole answer with %s: %s is refused', async (name, value, expected) => {
    const page = await get('/products');
    const message = await refusal({
      operationId: 'listProducts',
      respond: { status: 200, body: page.body, headers: { [name]: value } },
    });
    expect(message).toMatch(expected);
  });

  it('a 429 whose Retry-After and retry_after disagree is refused; agreeing, taken', async () => {
    const body = { error: 'Rate limit exceeded', code: 429, retry_after: 60 };
    const message = await refusal({
      operationId: 'getProduct',
      respond: { status: 429, body, headers: { 'retry-after': '5' } },
    });
    expect(message).toMatch(
      /"header:retry-after" Retry-After header and retry_after body field disagree/,
    );
    const taken = await stub({
      operationId: 'getProduct',
      respond: { status: 429, body, headers: { 'retry-after': '60' } },
    });
    expect(taken.id).toEqual(expect.any(String));
  });
});

describe('records are judged on every operation that serves them', () => {
  let mock: MockAppHandle;
  const get = async (path: string) => {
    const res = await mock.fetch(
      new Request(`${mock.url}${path}`, { headers: { 'x-api-key': mock.keys.fullAccess } }),
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const refusal = async (
    family: Parameters<MockAppHandle['qa']['records']['put']>[0],
    record: Record<string, unknown>,
  ): Promise<string> => {
    try {
      await mock.qa.records.put(family, record);
    } catch (error) {
      expect(error).toBeInstanceOf(QaControlError);
      return (error as Error).message;
    }
    throw new Error(`accepted: ${JSON.stringify(record).slice(0, 200)}`);
  };
  beforeAll(async () => {
    mock = await createMockApp({ adminToken: TOKEN });
  });
  beforeEach(async () => {
    await mock.qa.reset();
  });

  it('a minimal product is refused naming the list and the fields; nothing is served', async () => {
    const message = await refusal('products', { productId: 'MIN1', applicationBlockDiagrams: [] });
    expect(message).toMatch(
      /"\/additionalDetails" required: additionalDetails \(as an item of listProducts\)/,
    );
    expect(message).toMatch(
      /"\/relatedProducts" required: relatedProducts \(as an item of listProducts\)/,
    );
    expect((await get('/products/MIN1')).status).toBe(404);
    expect((await get('/products?productId=MIN1')).body.data).toEqual([]);
  });

  it('a product its by-ID answer cannot be built from is refused, naming getProduct', async () => {
    const [id] = mock.examples.ids.products;
    const [item] = (await get(`/products?productId=${encodeURIComponent(id)}`)).body.data as Record<
      string,
      unknown
    >[];
    const { featuredDocuments: _left, ...rest } = item;
    const message = await refusal('products', { ...rest, productId: 'MIN2' });
    expect(message).toMatch(/"" served by getProduct: it cannot serve the record/);
    expect((await get('/products/MIN2')).status).toBe(404);
  });

  it.each([
    ['productParts', 'orderableId', '/product-parts'],
    ['boardsKits', 'boardKitId', '/boards-kits'],
    ['packages', 'packageCode', '/packages'],
    ['softwareTools', 'softwareToolName', '/software-tools'],
  ] as const)(
    'a minimal %s record is served whole where the suite would pass it, each absent field warned of',
    async (family, idField, path) => {
      const put = await mock.qa.records.put(family, { [idField]: 'MIN1' });
      expect(put.warnings.length).toBeGreaterThan(0);
      for (const w of put.warnings) expect(w.pointer).toMatch(/^\/[A-Za-z0-9]+$/);
      expect(put.warnings.map((w) => w.rule)).toContain(
        'present: the mock sends every declared field (null where nullable); presence is not stated',
      );
      expect((await get(`${path}/MIN1`)).status).toBe(200);
    },
  );

  it('a record whose href leads to no record is refused, naming the pointer and the operation', async () => {
    const [id] = mock.examples.ids.products;
    const [item] = (await get(`/products?productId=${encodeURIComponent(id)}`)).body.data as Record<
      string,
      unknown
    >[];
    const related = item.relatedProducts as { href: string }[] | null;
    const copy = {
      ...item,
      productId: 'NEW-1',
      relatedProducts: [{ ...(related?.[0] ?? {}), productId: 'NOPE', href: '/products/NOPE' }],
    };
    const message = await refusal('products', copy);
    expect(message).toMatch(
      /"\/relatedProducts\/0\/href" served by listProducts: href "\/products\/NOPE" does not resolve: GET getProduct answers 404/,
    );
    // Linking to itself is fine: the record exists once put.
    const self = {
      ...copy,
      relatedProducts: [
        { ...copy.relatedProducts[0], productId: 'NEW-1', href: '/products/NEW-1' },
      ],
    };
    await mock.qa.records.put('products', self);
    const served = await get('/products/NEW-1');
    expect(served.status).toBe(200);
  });

  it('a copy of a seed record with a new identifier is taken and served by its list and by ID', async () => {
    const [id] = mock.examples.ids.products;
    const listed0 = await get(`/products?productId=${encodeURIComponent(id)}`);
    const [product] = listed0.body.data as Record<string, unknown>[];
    const put = await mock.qa.records.put('products', { ...product, productId: 'COPY-1' });
    expect(put.created).toBe(true);
    expect((await get('/products/COPY-1')).status).toBe(200);
    const listed = await get('/products?productId=COPY-1');
    expect((listed.body.data as { productId: string }[]).map((p) => p.productId)).toEqual([
      'COPY-1',
    ]);
  });
});

describe('a stub kept before the rules (or read from a shared store) is judged when served', () => {
  it('a 1xx or a lying whole answer is skipped: the dataset answers and the journal says why', async () => {
    const app = await testApp({ adminToken: TOKEN });
    const [id] = (await call(app, '/products?limit=1')).body.data as { productId: string }[];
    const path = `/products/${encodeURIComponent(id.productId)}`;
    await app.state.stores.stubs.add({
      id: 'interim',
      match: { operationId: 'getProduct' },
      respond: { status: 100, body: {} },
      unchecked: true,
    });
    const interim = await call(app, path);
    expect(interim.status).toBe(200);
    expect(interim.body.productId).toBe(id.productId);
    await app.state.stores.stubs.add({
      id: 'liar',
      match: { operationId: 'getProduct' },
      respond: {
        status: 200,
        body: { ...interim.body, productId: 'SOMETHING-ELSE' },
        headers: { 'set-cookie': 'a=b' },
      },
    });
    const lied = await call(app, path);
    expect(lied.body.productId).toBe(id.productId);
    expect(lied.headers.get('set-cookie')).toBeNull();
    const journal = await call(app, '/__mock/requests', {
      key: null,
      headers: { 'x-mock-admin-token': TOKEN },
    });
    const skipped = (journal.body.requests as { stubSkipped?: string }[]).map((r) => r.stubSkipped);
    expect(skipped).toContainEqual(expect.stringMatching(/set-cookie|requested identifier/));
    expect(skipped).toContainEqual('status 100 is not a final answer');
  });
});
