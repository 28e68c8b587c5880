/**
 * The listing module over a small collection: each `x-filter` match kind, `x-sort` key mapping,
 * the "no filter" value, and paging over the cached result.
 */
import { describe, expect, it } from 'vitest';
import type { Operation, Parameter } from '../../contract/index.js';
import { createCollection } from '../../dataset/collection.js';
import { Listing, toListQuery, type ListQuery } from './listing.js';

interface Row {
  id: string;
  name: string;
  kind: string;
  updated: string;
  flagged: boolean;
  tags: string[];
  price: number | null;
}

const ROWS: Row[] = [
  {
    id: 'A-100',
    name: 'Flash Programmer',
    kind: 'tool',
    updated: '2024-01-05T10:00:00Z',
    flagged: false,
    tags: ['x', 'y'],
    price: 3,
  },
  {
    id: 'A-200',
    name: 'e2 studio',
    kind: 'ide',
    updated: '2024-02-01T00:00:00Z',
    flagged: true,
    tags: ['y'],
    price: null,
  },
  {
    id: 'B-100',
    name: 'Smart Configurator',
    kind: 'tool',
    updated: '2024-02-29T23:59:59Z',
    flagged: false,
    tags: [],
    price: 1,
  },
  {
    id: 'B-110',
    name: 'QE for Display',
    kind: 'TOOL',
    updated: '2024-03-01T00:00:00Z',
    flagged: false,
    tags: ['x'],
    price: 2,
  },
];

const collection = createCollection<Row>({
  name: 'rows',
  size: ROWS.length,
  id: (i) => ROWS[i].id,
  build: (i) => ROWS[i],
  fields: {
    id: (i) => ROWS[i].id,
    name: (i) => ROWS[i].name,
    kind: (i) => ROWS[i].kind,
    updated: (i) => ROWS[i].updated,
    flagged: (i) => ROWS[i].flagged,
    tags: (i) => ROWS[i].tags,
    price: (i) => ROWS[i].price,
  },
});

function param(
  name: string,
  filter?: Parameter['filter'],
  extra: Partial<Parameter> = {},
): Parameter {
  return {
    name,
    in: 'query',
    required: false,
    schema: {},
    commaJoined: false,
    source: 'reference',
    since: '1.0.0',
    filter,
    ...extra,
  };
}

const op = {
  operationId: 'listRows',
  parameters: [
    param('limit'),
    param('offset'),
    param('order', undefined, { sortFields: { last_updated: 'updated', '1ku_price': 'price' } }),
    param('orderDirection'),
    param('idStartsWith', { field: 'id', match: 'prefix' }),
    param('nameContains', { field: 'name', match: 'contains' }),
    param('kind', { field: 'kind', match: 'exact', any: 'all' }),
    param('updatedStart', { field: 'updated', match: 'from' }),
    param('updatedEnd', { field: 'updated', match: 'to' }),
    param('includeFlagged', { field: 'flagged', match: 'include' }),
    param('tag', { field: 'tags', match: 'exact' }),
    param('relation'),
  ],
  responses: new Map(),
} as unknown as Operation;

/** The same list served at a release whose record lacks `updated` (arrives later, `x-since`). */
const olderOp = {
  ...op,
  responses: new Map([
    [
      '200',
      {
        jsonSchema: {
          properties: {
            data: { items: { properties: { id: {}, name: {}, kind: {}, price: {} } } },
          },
        },
      },
    ],
  ]),
} as unknown as Operation;

const listing = new Listing(collection);

function ids(query: Record<string, unknown>): string[] {
  const { query: q, problems } = toListQuery(op, { limit: 10, offset: 0, ...query }, 'relation');
  expect(problems).toEqual([]);
  return [...listing.page(q).positions].map((i) => ROWS[i].id);
}

describe('listing filters from x-filter', () => {
  it('prefix matches the start of the field, case-insensitively', () => {
    expect(ids({ idStartsWith: 'b-1' })).toEqual(['B-100', 'B-110']);
    expect(ids({ idStartsWith: 'A-1' })).toEqual(['A-100']);
    expect(ids({ idStartsWith: 'C' })).toEqual([]);
  });

  it('contains matches a substring anywhere (trigram index and short needles)', () => {
    expect(ids({ nameContains: 'config' })).toEqual(['B-100']);
    expect(ids({ nameContains: 'RA' }).sort()).toEqual(['A-100', 'B-100']);
    expect(ids({ nameContains: 'e2' })).toEqual(['A-200']);
    expect(ids({ nameContains: 'studio x' })).toEqual([]);
  });

  it('exact ignores case; its "any" value means no filter', () => {
    expect(ids({ kind: 'tool' }).sort()).toEqual(['A-100', 'B-100', 'B-110']);
    expect(ids({ kind: 'all' })).toHaveLength(4);
  });

  it('from and to bound the date part inclusively', () => {
    expect(ids({ updatedStart: '2024-02-01', updatedEnd: '2024-02-29' }).sort()).toEqual([
      'A-200',
      'B-100',
    ]);
    expect(ids({ updatedEnd: '2024-01-05' })).toEqual(['A-100']);
    expect(ids({ updatedStart: '2024-03-02' })).toEqual([]);
  });

  it('include=false leaves out flagged records; include=true lists them all', () => {
    expect(ids({ includeFlagged: false })).not.toContain('A-200');
    expect(ids({ includeFlagged: false })).toHaveLength(3);
    expect(ids({ includeFlagged: true })).toHaveLength(4);
  });

  it('multi-valued fields match on any element; filters combine with AND', () => {
    expect(ids({ tag: 'x' }).sort()).toEqual(['A-100', 'B-110']);
    expect(ids({ tag: 'y', includeFlagged: false })).toEqual(['A-100']);
  });

  it('a parameter the handler serves as a relation is left to it; one without x-filter is a document error', () => {
    expect(ids({ relation: 'whatever' })).toHaveLength(4);
    expect(() => toListQuery(op, { limit: 10, offset: 0, relation: 'x' })).toThrow(/x-filter/);
  });
});

describe('listing sort keys from x-sort', () => {
  it('maps a sort key to its record field, nulls last', () => {
    expect(ids({ order: ['1ku_price'], orderDirection: ['asc'] })).toEqual([
      'B-100',
      'B-110',
      'A-100',
      'A-200',
    ]);
    expect(ids({ order: ['last_updated'], orderDirection: ['desc'] })).toEqual([
      'B-110',
      'B-100',
      'A-200',
      'A-100',
    ]);
  });

  it('a key whose field the served release lacks orders nothing: the next key decides', () => {
    const { query } = toListQuery(olderOp, {
      limit: 10,
      offset: 0,
      order: ['last_updated', '1ku_price'],
      orderDirection: ['desc', 'asc'],
    });
    expect(query.sort).toEqual([{ field: 'price', direction: 'asc' }]);
    expect([...listing.page(query).positions].map((i) => ROWS[i].id)).toEqual([
      'B-100',
      'B-110',
      'A-100',
      'A-200',
    ]);
  });

  it('a key x-sort does not name sorts by the field of its own name', () => {
    expect(ids({ order: ['name'], orderDirection: ['asc'] })).toEqual([
      'A-200',
      'A-100',
      'B-110',
      'B-100',
    ]);
  });
});

describe('paging over a filtered result', () => {
  it('pages in sort order with the total of the filtered set', () => {
    const q: ListQuery = {
      limit: 2,
      offset: 2,
      sort: [{ field: 'updated', direction: 'asc' }],
      filters: [],
    };
    const page = listing.page(q);
    expect([...page.positions].map((i) => ROWS[i].id)).toEqual(['B-100', 'B-110']);
    expect({ offset: page.offset, total: page.total, hasMore: page.hasMore }).toEqual({
      offset: 2,
      total: 4,
      hasMore: false,
    });
  });
});
