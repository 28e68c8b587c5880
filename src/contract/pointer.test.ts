/**
 * @module contract/pointer.test
 * The one JSON-pointer module: a segment survives escaping and unescaping whatever it holds, a
 * pointer splits into the names it was built from, and array indices group into `*`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  escapeSegment,
  lastSegment,
  pointerOf,
  pointerPattern,
  segmentsOf,
  unescapeSegment,
} from './pointer.js';

describe('pointer', () => {
  it('escapes ~ and / as RFC 6901 says, ~ first', () => {
    expect(escapeSegment('a/b~c')).toBe('a~1b~0c');
    expect(unescapeSegment('~01')).toBe('~1');
    expect(segmentsOf('#/paths/~1packages/get')).toEqual(['paths', '/packages', 'get']);
    expect(segmentsOf('')).toEqual([]);
    expect(lastSegment('/data/*/a~1b')).toBe('a/b');
    expect(pointerPattern('/data/12/items/3/x')).toBe('/data/*/items/*/x');
  });

  it('round-trips any names', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (names) => {
        expect(segmentsOf(pointerOf(names))).toEqual(names);
        for (const n of names) expect(unescapeSegment(escapeSegment(n))).toBe(n);
      }),
    );
  });
});
