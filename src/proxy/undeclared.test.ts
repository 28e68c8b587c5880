/**
 * @module proxy/undeclared.test
 * The undeclared-field walker against the document's own schemas: nested objects, arrays, allOf,
 * the fitting oneOf branch (the two product shapes), anyOf items and free-form values.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Schema } from '../contract/index.js';
import { findUndeclared } from './undeclared.js';

let schemas: Record<string, Schema>;

beforeAll(async () => {
  const { document } = await loadContract();
  schemas = document.components!.schemas as Record<string, Schema>;
});

describe('findUndeclared', () => {
  it('finds nothing in a body made of declared fields', () => {
    const body = { data: [{ productId: 'P1', title: 'T', category: [{ level: 1, title: 'Amps' }] }], pagination: { offset: 0, limit: 10, total: 1, has_more: false } };
    expect(findUndeclared(schemas.ProductList, body)).toEqual([]);
  });

  it('reports undeclared fields with pointer and sample, at any depth', () => {
    const body = {
      data: [{ productId: 'P1', newField: 'x', orderableProducts: [{ orderableId: 'O#1', href: '/h', stock: 5 }] }],
      pagination: { offset: 0, limit: 10, total: 1, has_more: false, cursor: 'abc' },
      meta: { took: 3 },
    };
    expect(findUndeclared(schemas.ProductList, body)).toEqual([
      { pointer: '/data/0/newField', sample: 'x' },
      { pointer: '/data/0/orderableProducts/0/stock', sample: 5 },
      { pointer: '/pagination/cursor', sample: 'abc' },
      { pointer: '/meta', sample: { took: 3 } },
    ]);
  });

  it('follows the oneOf branch the body fits (the two by-ID product shapes)', () => {
    const v100 = { productId: 'P1', additionalDetails: null, relatedProducts: [{ productId: 'P2', title: 't', href: '/p', rank: 1 }] };
    expect(findUndeclared(schemas.ProductById, v100)).toEqual([{ pointer: '/relatedProducts/0/rank', sample: 1 }]);
    const v120 = { productId: 'P1', applicationBlockDiagrams: [{ title: 't', description: 'd', imageUrl: 'i', url: 'u', size: 'L' }] };
    expect(findUndeclared(schemas.ProductById, v120)).toEqual([{ pointer: '/applicationBlockDiagrams/0/size', sample: 'L' }]);
  });

  it('walks anyOf items in both category forms', () => {
    const body = { category: [{ level: 1, title: 'A', slug: 'a' }, [{ level: 2, title: 'B', id: 7 }]] };
    expect(findUndeclared(schemas.Product, body)).toEqual([
      { pointer: '/category/0/slug', sample: 'a' },
      { pointer: '/category/1/0/id', sample: 7 },
    ]);
  });

  it('does not report inside free-form values, and escapes pointer characters', () => {
    const error = { error: 'bad', code: 400, details: [{ in: 'query', name: 'limit', rule: 'type: integer', message: 'm', received: { any: 'thing' } }], 'a/b~c': 1 };
    expect(findUndeclared(schemas.BadRequestError, error)).toEqual([{ pointer: '/a~1b~0c', sample: 1 }]);
  });

  it('shows a value nested beyond the stack without throwing', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(findUndeclared(schemas.NotFoundError, { error: 'x', deep })).toEqual([{ pointer: '/deep', sample: '(too deeply nested to show)' }]);
  });

  it('truncates long samples', () => {
    const [field] = findUndeclared(schemas.NotFoundError, { error: 'x', blob: 'y'.repeat(500) });
    expect(String(field.sample).length).toBeLessThan(200);
  });
});
