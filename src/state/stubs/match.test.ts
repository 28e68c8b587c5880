/**
 * @module state/stubs/match.test
 * The one matcher: each member of a match must hold, compared as the mock parses the request;
 * the differences name each member that does not (what a near miss shows); a match as sent is
 * read with every wrong field named.
 */
import { describe, expect, it } from 'vitest';
import { matchDifferences, matches, readMatch, type MatchFacts } from './match.js';

const request: MatchFacts = {
  operationId: 'searchProductParts',
  params: { product_id: 'P-1' },
  query: { limit: 20, offset: 20, order: ['title'], category: 'Sensors' },
  body: { productId: 'P-1', filters: [{ attribute: 'a', values: ['x'] }], extra: { n: 1 } },
  keyName: 'demo-unlimited',
};

describe('matches', () => {
  it.each([
    [{}, true],
    [{ operationId: 'searchProductParts' }, true],
    [{ operationId: 'listProducts' }, false],
    [{ params: { product_id: 'P-1' } }, true],
    [{ params: { product_id: 'P-2' } }, false],
    [{ params: { missing: 'x' } }, false],
    [{ query: { offset: 20 } }, true],
    [{ query: { offset: '20' } }, true],
    [{ query: { offset: 0 } }, false],
    [{ query: { offset: '020' } }, false],
    [{ query: { order: ['title'] } }, true],
    [{ query: { order: 'title' } }, false],
    [{ body: { productId: 'P-1' } }, true],
    [{ body: { extra: {} } }, true],
    [{ body: { extra: { n: 2 } } }, false],
    [{ body: { filters: [{ attribute: 'a' }] } }, false],
    [{ body: { filters: [{ attribute: 'a', values: ['x'] }] } }, true],
    [{ body: { nope: null } }, false],
    [{ key: 'demo-unlimited' }, true],
    [{ key: 'demo-production' }, false],
  ])('%j -> %s', (match, expected) => {
    expect(matches(match, request)).toBe(expected);
  });

  it('names each differing member, expected against actual', () => {
    expect(
      matchDifferences(
        { operationId: 'listProducts', query: { offset: 40 }, body: { extra: { n: 2 } } },
        request,
      ),
    ).toEqual([
      { at: 'operationId', expected: 'listProducts', actual: 'searchProductParts' },
      { at: '/query/offset', expected: 40, actual: 20 },
      { at: '/body/extra/n', expected: 2, actual: 1 },
    ]);
  });

  it('does not take inherited members for present ones', () => {
    expect(matches({ body: { toString: 'x' } }, { operationId: 'x', body: {} })).toBe(false);
    expect(matches({ query: { constructor: 'x' } }, { operationId: 'x', query: {} })).toBe(false);
  });
});

describe('readMatch', () => {
  it('names every wrong field', () => {
    expect(
      readMatch({ operationId: ['listProducts'], key: 42, query: 'offset=20', colour: 1 }),
    ).toEqual([
      { pointer: '/match/operationId', rule: 'a string', message: 'must be a string' },
      { pointer: '/match/key', rule: 'a string', message: 'must be a string' },
      expect.objectContaining({ pointer: '/match/query', message: 'must be an object' }),
      expect.objectContaining({ pointer: '/match/colour', message: 'unknown field' }),
    ]);
    expect(readMatch([])).toEqual([expect.objectContaining({ pointer: '/match' })]);
  });

  it('bounds what it keeps', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { a: deep };
    expect(readMatch({ body: deep })).toEqual([expect.objectContaining({ message: 'too large' })]);
  });

  it('reads a good match as is', () => {
    const match = { operationId: 'listProducts', query: { offset: 20 }, body: { a: [1] } };
    expect(readMatch(match)).toEqual(match);
  });
});
