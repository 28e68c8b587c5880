/**
 * @module evidence/declared.test
 * The undeclared patterns a profile keeps no personal-looking value under: the full list, or
 * "everything is undeclared" when the list would be incomplete (over the per-body bound, or a
 * name cut), never a short list that would let a value through as declared.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, MAX_UNDECLARED_PATTERNS, type Operation } from '../contract/index.js';
import { declaredLookup, undeclaredPatterns } from './declared.js';

let listPackages: Operation;
let operations: readonly Operation[];
beforeAll(async () => {
  const contract = await loadContract({ release: 'unreleased' });
  listPackages = contract.operation('listPackages');
  operations = contract.operations;
});

const page = (record: Record<string, unknown>) => ({
  data: [{ packageCode: 'P1', ...record }],
  pagination: { offset: 0, limit: 10, total: 1, has_more: false },
});

describe('undeclaredPatterns', () => {
  it('lists the patterns when they are few', () => {
    expect(undeclaredPatterns(listPackages, 200, page({ email: 'a@b.c' }))).toEqual([
      '/data/*/email',
    ]);
  });

  it('counts everything as undeclared past the bound or for a cut name', () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_UNDECLARED_PATTERNS + 1 }, (_, i) => [`f${i}`, i]),
    );
    expect(undeclaredPatterns(listPackages, 200, page(many))).toBeUndefined();
    expect(undeclaredPatterns(listPackages, 200, page({ ['n'.repeat(300)]: 1 }))).toBeUndefined();
  });
});

describe('declaredLookup', () => {
  const types = (op: string, pointer: string, status = '200') => {
    const place = declaredLookup(operations)(op, status, pointer);
    return place && { types: place.types && [...place.types].sort(), enumerated: place.enumerated };
  };

  it('reads the types a place declares, through $ref, items and oneOf branches', () => {
    expect(types('getPackage', '/regulatory/pbFreeCategory')).toEqual({
      types: ['null', 'string'],
      enumerated: false,
    });
    expect(types('listPackages', '/data/*/regulatory/pbFreeCategory')?.types).toEqual([
      'null',
      'string',
    ]);
    expect(types('getProductPartAttribute', '/possibleValues/*')?.types).toEqual([
      'boolean',
      'number',
      'string',
    ]);
  });

  it('names an enum, and is silent (undefined) where the document declares nothing', () => {
    expect(types('listBoardsKits', '/data/*/boardKitType')?.enumerated).toBe(true);
    expect(types('listPackages', '/data/*/noSuchField')).toBeUndefined();
    expect(types('noSuchOperation', '/data')).toBeUndefined();
    expect(types('listPackages', '/data', '599')).toBeUndefined();
  });
});
