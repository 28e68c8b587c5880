/**
 * @module vary/header.test
 * `x-mock-variation` stays a valid, bounded header whatever the pointers: a long list is cut with
 * a count of the rest, pointers with non-ASCII text, commas or `%` are percent-encoded (header
 * values are Latin-1 at best), and the value reads back as it was written.
 */
import { describe, expect, it } from 'vitest';
import type { Edit } from './edits.js';
import { MAX_VARIATION_HEADER_CHARS, parseVariationHeader, variationHeader } from './header.js';

describe('x-mock-variation', () => {
  it('names the seed, each edit, and "none" when nothing was varied', () => {
    expect(variationHeader(7, [])).toBe('seed=7; none');
    expect(
      variationHeader(7, [
        { kind: 'absent', pointer: '/data/0/images' },
        { kind: 'null', pointer: '/data/1/class' },
      ]),
    ).toBe('seed=7; absent /data/0/images, null /data/1/class');
  });

  it('lists the shallowest pointers first, in body order at each depth', () => {
    const value = variationHeader(2, [
      { kind: 'absent', pointer: '/data/0/orderableProducts/1/href' },
      { kind: 'null', pointer: '/data/0/class' },
      { kind: 'absent', pointer: '/data/1/images' },
    ]);
    expect(value).toBe(
      'seed=2; null /data/0/class, absent /data/1/images, absent /data/0/orderableProducts/1/href',
    );
  });

  it('percent-encodes what a header cannot carry or the list uses, and reads back', () => {
    const edits: Edit[] = [
      { kind: 'absent', pointer: '/a%b;c' },
      { kind: 'non-ascii', pointer: '/distiInventory/value/Größe, Ltd./part' },
    ];
    const value = variationHeader(1, edits);
    expect(value).toMatch(/^[\x21-\x7e ]+$/);
    expect(parseVariationHeader(value)).toEqual({ seed: 1, edits });
  });

  it('is cut at its bound with the count of the edits left out', () => {
    const edits: Edit[] = Array.from({ length: 1000 }, (_, i) => ({
      kind: 'absent',
      pointer: `/data/${i}/description`,
    }));
    const value = variationHeader(3, edits);
    expect(value.length).toBeLessThanOrEqual(MAX_VARIATION_HEADER_CHARS);
    const shown = parseVariationHeader(value).edits;
    expect(shown).toEqual(edits.slice(0, shown.length));
    expect(value).toMatch(new RegExp(` \\(\\+${1000 - shown.length} more\\)$`));
  });
});
