/**
 * The product-parts family through the app, one request per reference parameter and body shape:
 * every answer is compared with what the dataset's records say it must hold (not only the status).
 * The app validates its own responses against the document while these run.
 */
import { describe, expect, it } from 'vitest';
import type { components } from '../../contract/types.gen.js';
import { call, sharedDataset, testApp } from '../../testing/mock-app.js';

type S = components['schemas'];
type Part = S['ProductPart'];

const dataset = sharedDataset();
const parts: Part[] = Array.from({ length: dataset.productParts.size }, (_, k) =>
  dataset.productParts.record(k),
);
const app = await testApp();

const ids = (body: { data: { orderableId: string }[] }) => body.data.map((p) => p.orderableId);
const sorted = (list: string[]) => [...list].sort();
/** Every part the list answers for a query, walking all pages at the largest page size. */
async function listAll(query: string): Promise<Part[]> {
  const all: Part[] = [];
  for (let page = 0; ; page++) {
    const res = await call(app, `/product-parts?${query}&limit=100&offset=${page}`);
    expect(res.status, `${query}: ${res.text.slice(0, 200)}`).toBe(200);
    all.push(...res.body.data);
    if (!res.body.pagination.has_more) return all;
  }
}

describe('GET /product-parts filters', () => {
  it('part_number is exact (any letter case)', async () => {
    const id = parts.find((p) => p.orderableId.includes('#'))!.orderableId;
    for (const asked of [id, id.toLowerCase()]) {
      const res = await call(app, `/product-parts?part_number=${encodeURIComponent(asked)}`);
      expect(ids(res.body)).toEqual([id]);
      expect(res.body.pagination.total).toBe(1);
    }
    expect(
      (await call(app, `/product-parts?part_number=${encodeURIComponent(id.slice(0, -1))}`)).body
        .pagination.total,
    ).toBe(parts.filter((p) => p.orderableId === id.slice(0, -1)).length);
  });

  it('part_number_prefix matches the start of the part number only', async () => {
    const prefix = parts[0].orderableId.slice(0, 4);
    const expected = parts
      .filter((p) => p.orderableId.toLowerCase().startsWith(prefix.toLowerCase()))
      .map((p) => p.orderableId);
    expect(expected.length).toBeGreaterThan(1);
    expect(
      sorted(
        (await listAll(`part_number_prefix=${encodeURIComponent(prefix.toLowerCase())}`)).map(
          (p) => p.orderableId,
        ),
      ),
    ).toEqual(sorted(expected));
    const middle = parts[0].orderableId.slice(1, 5);
    const startsWithMiddle = parts.filter((p) =>
      p.orderableId.toLowerCase().startsWith(middle.toLowerCase()),
    ).length;
    expect(
      (await call(app, `/product-parts?part_number_prefix=${encodeURIComponent(middle)}`)).body
        .pagination.total,
    ).toBe(startsWithMiddle);
  });

  it('part_status takes every form the reference shows; the NRND spellings are one status', async () => {
    const count = (status: string) => parts.filter((p) => p.status === status).length;
    const total = async (value: string) =>
      (await call(app, `/product-parts?part_status=${encodeURIComponent(value)}&limit=1`)).body
        .pagination.total;
    for (const status of ['Active', 'NRND', 'Obsolete'])
      expect(await total(status), status).toBe(count(status));
    expect(count('NRND')).toBeGreaterThan(0);
    expect(await total('Not Recommended for New Designs')).toBe(count('NRND'));
    expect(await total('Not Recommended<br /> for New Designs')).toBe(count('NRND'));
    expect(await total('Preview')).toBe(0);
    expect((await call(app, '/product-parts?part_status=Production')).status).toBe(400);
  });

  it('generic_product_id gives the parts of that product; product_family those of the family', async () => {
    const product = dataset.products.id(3);
    expect(
      sorted(
        (await listAll(`generic_product_id=${encodeURIComponent(product)}`)).map(
          (p) => p.orderableId,
        ),
      ),
    ).toEqual(sorted(dataset.partsOfProduct(3).map((k) => dataset.productParts.id(k))));
    const family = parts[0].productFamily!;
    const inFamily = await listAll(`product_family=${encodeURIComponent(family.toUpperCase())}`);
    expect(inFamily.length).toBe(parts.filter((p) => p.productFamily === family).length);
    expect(inFamily.every((p) => p.productFamily === family)).toBe(true);
  });

  it('filters combine with AND', async () => {
    const family = parts[0].productFamily!;
    const found = await listAll(`product_family=${encodeURIComponent(family)}&part_status=Active`);
    expect(found.length).toBe(
      parts.filter((p) => p.productFamily === family && p.status === 'Active').length,
    );
    expect(found.every((p) => p.status === 'Active' && p.productFamily === family)).toBe(true);
  });
});

describe('GET /product-parts sorting and paging', () => {
  /** The value each reference sort key orders by (the document's x-sort). */
  const KEYS: Record<string, (p: Part) => string | number | null> = {
    last_updated: (p) => p.distiInventory!.updated!,
    part_number: (p) => p.orderableId.toLowerCase(),
    part_status: (p) => p.status!,
    '1ku_price': (p) => p['1kuPrice'] as number | null,
    stock: (p) => p.distiInventory!.quantity!,
  };
  const inOrder = (values: (string | number | null)[], direction: 'asc' | 'desc') =>
    values.every((v, i) => {
      if (i === 0) return true;
      const prev = values[i - 1];
      // A missing value sorts as the highest: last ascending, first descending.
      if (prev === null || v === null) return direction === 'asc' ? v === null : prev === null;
      return direction === 'asc' ? prev <= v : prev >= v;
    });

  for (const [key, value] of Object.entries(KEYS)) {
    for (const direction of ['asc', 'desc'] as const) {
      it(`order=${key}&orderDirection=${direction}`, async () => {
        const res = await call(
          app,
          `/product-parts?order=${key}&orderDirection=${direction}&limit=100`,
        );
        expect(res.body.data).toHaveLength(100);
        expect(inOrder(res.body.data.map(value), direction)).toBe(true);
        // The last page continues the same order.
        const last = await call(
          app,
          `/product-parts?order=${key}&orderDirection=${direction}&limit=100&offset=${Math.floor((parts.length - 1) / 100)}`,
        );
        expect(
          inOrder(
            [...res.body.data, ...last.body.data].map(value).slice(-last.body.data.length - 1),
            direction,
          ),
        ).toBe(true);
      });
    }
  }

  it('defaults to last_updated descending, and the cheapest parts come first at 1ku_price asc', async () => {
    const res = await call(app, '/product-parts?limit=100');
    expect(inOrder(res.body.data.map(KEYS.last_updated), 'desc')).toBe(true);
    const cheapest = Math.min(
      ...parts.filter((p) => p['1kuPrice'] !== null).map((p) => p['1kuPrice'] as number),
    );
    expect(
      (await call(app, '/product-parts?order=1ku_price&orderDirection=asc&limit=1')).body.data[0][
        '1kuPrice'
      ],
    ).toBe(cheapest);
    const most = Math.max(...parts.map((p) => p.distiInventory!.quantity!));
    expect(
      (await call(app, '/product-parts?order=stock&limit=1')).body.data[0].distiInventory.quantity,
    ).toBe(most);
  });

  it('pages do not overlap and limit is 1..100', async () => {
    const first = await call(app, '/product-parts?order=part_number&orderDirection=asc&limit=7');
    const second = await call(
      app,
      '/product-parts?order=part_number&orderDirection=asc&limit=7&offset=1',
    );
    expect(second.body.pagination).toEqual({
      offset: 7,
      limit: 7,
      total: parts.length,
      has_more: true,
    });
    expect(ids(first.body).filter((id) => ids(second.body).includes(id))).toEqual([]);
    const byNumber = parts
      .map((p) => p.orderableId)
      .sort((x, y) =>
        x.toLowerCase() < y.toLowerCase()
          ? -1
          : x.toLowerCase() > y.toLowerCase()
            ? 1
            : x < y
              ? -1
              : 1,
      );
    expect([...ids(first.body), ...ids(second.body)]).toEqual(byNumber.slice(0, 14));
    expect((await call(app, '/product-parts?limit=100')).body.data).toHaveLength(100);
    expect((await call(app, '/product-parts?limit=0')).status).toBe(400);
  });
});

describe('GET /product-parts/attributes', () => {
  it('pages 50 by default, narrows by productId, and answers by id', async () => {
    const res = await call(app, '/product-parts/attributes');
    expect(res.body.pagination.limit).toBe(50);
    expect(res.body.pagination.total).toBe(dataset.attributes.size);
    const carried = dataset.attributesOfProduct(0).map((a) => dataset.attributes.id(a));
    expect(
      ids2(
        (
          await call(
            app,
            `/product-parts/attributes?productId=${encodeURIComponent(dataset.products.id(0))}`,
          )
        ).body,
      ),
    ).toEqual(carried);
    expect(parts[0].parametricAttributes!.map((a) => a.productPartAttributeId)).toEqual(carried);
    expect(
      (await call(app, '/product-parts/attributes?productId=NO-SUCH-PRODUCT')).body.pagination
        .total,
    ).toBe(0);
    const one = await call(app, `/product-parts/attributes/${carried[0]}`);
    expect(one.body).toEqual(dataset.attributes.record(dataset.attributes.indexOf(carried[0])!));
    expect(Object.keys(one.body).sort()).toEqual([
      'attributeName',
      'attributeType',
      'description',
      'filterType',
      'possibleValues',
      'productPartAttributeId',
      'unit',
    ]);
  });
  const ids2 = (body: { data: { productPartAttributeId: string }[] }) =>
    body.data.map((a) => a.productPartAttributeId);
});

describe('POST /product-parts/search', () => {
  // A product with several parts, and its parts' values per attribute.
  const product = Array.from({ length: dataset.products.size }, (_, p) => p).find(
    (p) => dataset.partsOfProduct(p).length >= 8,
  )!;
  const productId = dataset.products.id(product);
  const own = parts.filter((p) => p.genericId === productId);
  const valueOf = (p: Part, attribute: string) =>
    p.parametricAttributes!.find((a) => a.productPartAttributeId === attribute)!.attributeValues[0];
  const numeric = own[0].parametricAttributes!.find(
    (a) =>
      !['operating_temp_min', 'operating_temp_max'].includes(a.productPartAttributeId) &&
      typeof a.attributeValues[0] === 'number',
  )!.productPartAttributeId;
  const text = own[0].parametricAttributes!.find(
    (a) => typeof a.attributeValues[0] === 'string' && !a.attributeValuesParsed,
  )!.productPartAttributeId;
  const flag = own[0].parametricAttributes!.find(
    (a) => typeof a.attributeValues[0] === 'boolean',
  )!.productPartAttributeId;
  const numbers = own.map((p) => valueOf(p, numeric) as number).sort((a, b) => a - b);
  const middle = numbers[Math.floor(numbers.length / 2)];

  const search = (body: unknown) => call(app, '/product-parts/search', { body });
  const found = async (filters: unknown[]) => {
    const res = await search({ productId, filters, limit: 100 });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    return sorted(ids(res.body));
  };
  const expected = (keep: (p: Part) => boolean) =>
    sorted(own.filter(keep).map((p) => p.orderableId));

  it("without filters lists the product's parts as reduced records and echoes the search", async () => {
    const res = await search({ productId });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({
      offset: 0,
      limit: 10,
      total: own.length,
      has_more: own.length > 10,
    });
    expect(res.body.filters).toEqual({ productId, applied: [] });
    const item = res.body.data[0];
    expect(Object.keys(item).sort()).toEqual([
      'genericId',
      'href',
      'orderableId',
      'parametricAttributes',
      'status',
    ]);
    const part = own.find((p) => p.orderableId === item.orderableId)!;
    expect(item).toMatchObject({
      genericId: productId,
      status: part.status,
      href: `/product-parts/${encodeURIComponent(part.orderableId)}`,
    });
    expect(item.parametricAttributes[0]).toEqual({
      ...part.parametricAttributes![0],
      attributeValuesParsed: undefined,
    });
  });

  it.each([
    ['gt', (v: number) => v > middle],
    ['gte', (v: number) => v >= middle],
    ['lt', (v: number) => v < middle],
    ['lte', (v: number) => v <= middle],
    ['eq', (v: number) => v === middle],
  ] as const)('%s compares numbers', async (operator, keep) => {
    const result = await found([{ productPartAttributeId: numeric, operator, values: [middle] }]);
    expect(result).toEqual(expected((p) => keep(valueOf(p, numeric) as number)));
    expect(result.length).toBeGreaterThan(0);
  });

  it('range is inclusive on min and max, and either bound may be open', async () => {
    const [low, high] = [numbers[1], numbers[numbers.length - 2]];
    expect(
      await found([{ productPartAttributeId: numeric, operator: 'range', min: low, max: high }]),
    ).toEqual(
      expected(
        (p) => (valueOf(p, numeric) as number) >= low && (valueOf(p, numeric) as number) <= high,
      ),
    );
    expect(
      await found([
        { productPartAttributeId: numeric, operator: 'range', min: middle, max: middle },
      ]),
    ).toEqual(expected((p) => valueOf(p, numeric) === middle));
    expect(
      await found([{ productPartAttributeId: numeric, operator: 'range', min: high }]),
    ).toEqual(expected((p) => (valueOf(p, numeric) as number) >= high));
  });

  it('eq on strings is an OR over values (any letter case); eq on booleans; operator defaults to eq', async () => {
    const [a, b] = [valueOf(own[0], text) as string, valueOf(own[own.length - 1], text) as string];
    expect(
      await found([{ productPartAttributeId: text, operator: 'eq', values: [a.toUpperCase(), b] }]),
    ).toEqual(expected((p) => [a, b].includes(valueOf(p, text) as string)));
    const res = await search({
      productId,
      filters: [{ productPartAttributeId: flag, values: [true] }],
    });
    expect(sorted(ids(res.body))).toEqual(expected((p) => valueOf(p, flag) === true));
    expect(res.body.filters.applied).toEqual([
      { productPartAttributeId: flag, values: [true], operator: 'eq' },
    ]);
  });

  it("yes/no attributes take the reference's strings ('Yes'/'No', any case; its example ['Yes', 'Available']) as well as booleans (DECISIONS 83)", async () => {
    const yes = expected((p) => valueOf(p, flag) === true);
    const no = expected((p) => valueOf(p, flag) === false);
    expect(yes.length).toBeGreaterThan(0);
    expect(no.length).toBeGreaterThan(0);
    expect(await found([{ productPartAttributeId: flag, values: ['Yes'] }])).toEqual(yes);
    expect(await found([{ productPartAttributeId: flag, values: ['no'] }])).toEqual(no);
    expect(await found([{ productPartAttributeId: flag, values: ['Yes', 'Available'] }])).toEqual(
      yes,
    );
    expect(await found([{ productPartAttributeId: flag, values: ['No', true] }])).toEqual(
      sorted(own.map((p) => p.orderableId)),
    );
    // A number is still no yes/no value: 400 naming the value.
    const res = await search({
      productId,
      filters: [{ productPartAttributeId: flag, values: [1] }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/body at "\/filters\/0\/values\/0"/);
  });

  it('filters combine with AND, and the body pages with limit and offset', async () => {
    const filters = [
      { productPartAttributeId: numeric, operator: 'gte', values: [numbers[0]] },
      { productPartAttributeId: flag, operator: 'eq', values: [false] },
    ];
    const all = await found(filters);
    expect(all).toEqual(expected((p) => valueOf(p, flag) === false));
    const page = await search({ productId, filters, limit: 1, offset: 1 });
    expect(page.body.pagination).toEqual({
      offset: 1,
      limit: 1,
      total: all.length,
      has_more: all.length > 2,
    });
  });

  it('400 without productId or for a filter that cannot apply; 404 for an unknown product', async () => {
    expect((await search({ filters: [] })).status).toBe(400);
    expect((await search({ productId: 'NO-SUCH-PRODUCT' })).status).toBe(404);
    // The error names the filter member at fault by JSON pointer.
    const problem = async (filter: unknown) => {
      const res = await search({ productId, filters: [filter] });
      expect(res.status).toBe(400);
      return /body at "([^"]+)"/.exec(res.body.error)?.[1];
    };
    expect(await problem({ productPartAttributeId: 'no_such_attribute', values: [1] })).toBe(
      '/filters/0/productPartAttributeId',
    );
    expect(await problem({ productPartAttributeId: text, operator: 'gt', values: ['a'] })).toBe(
      '/filters/0/operator',
    );
    expect(
      await problem({ productPartAttributeId: numeric, operator: 'gt', values: ['high'] }),
    ).toBe('/filters/0/values/0');
    expect(await problem({ productPartAttributeId: numeric, operator: 'gt' })).toBe(
      '/filters/0/values',
    );
    expect(
      await problem({ productPartAttributeId: numeric, operator: 'range', min: 5, max: 1 }),
    ).toBe('/filters/0/min');
    expect((await search({ productId, limit: 101 })).status).toBe(400);
  });
});

describe('POST /product-parts/cross-reference', () => {
  it('answers one entry per number in request order; unknown numbers have no results', async () => {
    const known = dataset.competitorPartNumbers.slice(0, 199);
    const res = await call(app, '/product-parts/cross-reference', {
      body: { partNumbers: [known[0].toLowerCase(), ...known.slice(1), 'UNKNOWN-123'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { partNumber: string }) => r.partNumber)).toEqual([
      known[0].toLowerCase(),
      ...known.slice(1),
      'UNKNOWN-123',
    ]);
    expect(res.body.data.at(-1)).toEqual({ partNumber: 'UNKNOWN-123', results: [] });
    const results: S['CrossReferenceMatch'][] = res.body.data.flatMap(
      (r: S['CrossReferenceResult']) => r.results,
    );
    expect(
      res.body.data.slice(0, -1).every((r: S['CrossReferenceResult']) => r.results.length > 0),
    ).toBe(true);
    expect(res.body.data[0].results[0].crossPartNumber).toBe(known[0]);
    expect(sorted([...new Set(results.map((m) => m.matchType))])).toEqual([
      'Drop-in',
      'Footprint',
      'Functional',
    ]);
    for (const m of results) {
      // Each match points at a record the mock serves.
      expect((await call(app, m.href!)).status, m.href).toBe(200);
      if (m.orderableId)
        expect(parts.find((p) => p.orderableId === m.orderableId)!.status).toBe(m.status);
      else expect(dataset.products.indexOf(m.genericId!)).toBeDefined();
    }
    expect(results.some((m) => m.orderableId === undefined)).toBe(true);
  });

  it('takes 1..200 numbers', async () => {
    expect(
      (await call(app, '/product-parts/cross-reference', { body: { partNumbers: [] } })).status,
    ).toBe(400);
    expect(
      (
        await call(app, '/product-parts/cross-reference', {
          body: { partNumbers: Array.from({ length: 201 }, (_, i) => `X${i}`) },
        })
      ).status,
    ).toBe(400);
  });
});
