import { describe, expect, it } from 'vitest';
import { parseQueryString } from './query-string.js';

describe('parseQueryString', () => {
  it('decodes names and values, plus as space, keeping order and repeats', () => {
    expect(parseQueryString('?a=1&b=x%20y+z&a=2&flag').pairs).toEqual([
      ['a', '1'],
      ['b', 'x y z'],
      ['a', '2'],
      ['flag', ''],
    ]);
  });
  it('names the parameter with a malformed escape instead of passing it through', () => {
    const { pairs, problems } = parseQueryString('limit=5&category=%E0%A4%A&x=%zz');
    expect(pairs).toEqual([['limit', '5']]);
    expect(problems.map((p) => [p.name, p.rule])).toEqual([
      ['category', 'valid percent-encoding (RFC 3986)'],
      ['x', 'valid percent-encoding (RFC 3986)'],
    ]);
  });
  it('gives nothing for an empty query', () => {
    expect(parseQueryString('')).toEqual({ pairs: [], problems: [] });
  });
});
