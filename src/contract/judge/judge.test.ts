/**
 * @module contract/judge/judge.test
 * The judge's pure functions, both ways: a broken answer gives the finding the suite reports, a
 * conforming one (differing where the facts allow) gives none.
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../load.js';
import {
  collectHrefs,
  depthOf,
  judgeHeaderNames,
  judgeHref,
  judgeIdentifiers,
  judgePage,
  judgeRetryAfter,
  nestsDeeper,
  pageAskedFor,
} from './index.js';

const contract = await loadContract({ release: 'unreleased' });
const op = (id: string) => contract.operations.find((o) => o.operationId === id)!;
const BASE = 'http://mock.test/web-data/v1';
const rules = (found: { rule: string }[]) => found.map((f) => f.rule);

describe('judgePage', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));
  it('passes a consistent page, the last one short', () => {
    const page = {
      data: items(2),
      pagination: { offset: 9, limit: 3, total: 11, has_more: false },
    };
    expect(judgePage(page, { offset: 9, limit: 3, total: 11 })).toEqual([]);
  });
  it("fails the issue's page: total 0, has_more, offset 999, limit 1 beside 3 items", () => {
    const page = {
      data: items(3),
      pagination: { total: 0, has_more: true, offset: 999, limit: 1 },
    };
    expect(rules(judgePage(page, { offset: 0, limit: 3, total: 0 }))).toEqual([
      'pagination.limit',
      'pagination.offset',
      'pagination.count',
      'pagination.has_more',
    ]);
  });
  it('reads the page asked for from the query, or from a search body', () => {
    expect(pageAskedFor(op('listProducts'), { limit: 5, offset: 2 })).toEqual({
      limit: 5,
      offset: 10,
    });
    expect(
      pageAskedFor(op('searchProductParts'), {}, { productId: 'X', limit: 4, offset: 1 }),
    ).toEqual({
      limit: 4,
      offset: 4,
    });
  });
});

describe('judgeIdentifiers', () => {
  it('passes a body that carries the path identifier, fails one that does not', () => {
    expect(
      judgeIdentifiers(op('getProduct'), { product_id: 'LT6138' }, { productId: 'LT6138' }),
    ).toEqual([]);
    expect(
      rules(
        judgeIdentifiers(
          op('getProduct'),
          { product_id: 'LT6138' },
          { productId: 'SOMETHING-ELSE' },
        ),
      ),
    ).toEqual(['id-round-trip']);
  });
});

describe('hrefs', () => {
  it('collects every href with its pointer, iteratively (a deep body costs no stack)', () => {
    let deep: unknown = { href: '/products/A' };
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(collectHrefs(deep)).toHaveLength(1);
    expect(collectHrefs({ a: [{ href: '/x' }], 'b/c': { href: '/y' } })).toEqual([
      { value: '/x', pointer: '/a/0/href' },
      { value: '/y', pointer: '/b~1c/href' },
    ]);
  });
  it('resolves relative and absolute hrefs on the base to their operation; judges the rest', () => {
    const at = (value: string) => judgeHref({ value, pointer: '/href' }, contract.operations, BASE);
    expect(at('/product-parts/NOPE')).toMatchObject({ target: { operationId: 'getProductPart' } });
    expect(at(`${BASE}/products/X`)).toMatchObject({ target: { operationId: 'getProduct' } });
    const rule = (value: string) => {
      const judged = at(value);
      return 'judgement' in judged ? judged.judgement.rule : undefined;
    };
    expect(rule('/products/A#B')).toBe('href-encoding');
    expect(rule('products/A')).toBe('href-form');
    expect(rule('http://elsewhere.example/other/products/A')).toBe('href-off-base');
    expect(rule('/nowhere/A')).toBe('href-unknown-path');
  });
});

describe('judgeRetryAfter and judgeHeaderNames', () => {
  it('a 429 passes with either wait alone or both equal, fails when they disagree', () => {
    expect(judgeRetryAfter(null, { retry_after: 5 })).toEqual([]);
    expect(judgeRetryAfter('5', {})).toEqual([]);
    expect(judgeRetryAfter('5', { retry_after: 5 })).toEqual([]);
    expect(rules(judgeRetryAfter('5', { retry_after: 60 }))).toEqual(['rate-limit-retry-after']);
  });
  it('takes the declared headers and content-type, in any case; names any other', () => {
    const declared = op('listProducts').responses.get('200')!;
    expect(judgeHeaderNames(declared, ['Content-Type', 'X-RateLimit-Remaining'])).toEqual([]);
    expect(
      judgeHeaderNames(declared, ['set-cookie', 'content-encoding']).map((j) => j.pointer),
    ).toEqual(['header:set-cookie', 'header:content-encoding']);
  });
});

describe('depth', () => {
  it('measures nesting without recursion and stops past the bound', () => {
    expect(depthOf(1, 32)).toBe(0);
    expect(depthOf({ a: [1] }, 32)).toBe(2);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nestsDeeper(deep, 32)).toBe(true);
    expect(depthOf(deep, 32)).toBe(33);
  });
});
