/**
 * @module listing-derive.test
 * A listing derived after record edits (its sort indexes carried over, the changed positions put
 * back in place) orders exactly as one built from scratch over the edited collection, for every
 * sort and direction, through a chain of edits and back to the seed.
 */
import { describe, expect, it } from 'vitest';
import type { Collection } from '../../dataset/dataset.js';
import { generateDataset } from '../../dataset/generate.js';
import { overlayDataset, type RecordEdit } from '../../state/records/overlay.js';
import { Listing, type SortKey } from './listing.js';

const seed = generateDataset({ seed: 3, scale: 1, baseUrl: 'http://mock.test/web-data/v1' });
const parts = seed.productParts;
const part = (i: number) => parts.record(i) as unknown as Record<string, unknown>;

const SORTS: SortKey[][] = [
  [],
  [{ field: 'orderableId', direction: 'asc' }],
  [{ field: '1kuPrice', direction: 'desc' }],
  [
    { field: 'status', direction: 'asc' },
    { field: 'distiInventory.updated', direction: 'desc' },
  ],
  [{ field: 'distiInventory.quantity', direction: 'asc' }],
];

/** Each step's edits (cumulative, as the log holds them). */
const STEPS: RecordEdit[][] = [
  [
    {
      op: 'put',
      family: 'productParts',
      id: 'AAA-NEW',
      record: { ...part(5), orderableId: 'AAA-NEW', '1kuPrice': 0 },
    },
  ],
  [
    {
      op: 'put',
      family: 'productParts',
      id: parts.id(7),
      record: { ...part(7), '1kuPrice': 999, status: 'Obsolete' },
    },
    { op: 'remove', family: 'productParts', id: parts.id(0) },
    { op: 'put', family: 'productParts', id: 'ZZZ-NEW', record: { orderableId: 'ZZZ-NEW' } },
  ],
  [{ op: 'remove', family: 'productParts', id: 'AAA-NEW' }],
  [],
];

function order(listing: Listing<unknown>, sort: SortKey[]): number[] {
  return [...listing.matching(sort, [])];
}

describe('Listing.derive', () => {
  it('orders as a fresh listing through a chain of edits and back to the seed', () => {
    let listing: Listing<unknown> = new Listing<unknown>(parts);
    for (const sort of SORTS) listing.warm(sort);
    let log: RecordEdit[] = [];
    let touched: number[] = [];
    for (const step of STEPS) {
      log = step.length === 0 ? [] : [...log, ...step];
      const overlay = overlayDataset(seed, log);
      const now = overlay.touched.get('productParts') ?? [];
      const collection = overlay.dataset.productParts as Collection<unknown>;
      listing = listing.derive(collection, [...new Set([...touched, ...now])]);
      touched = [...now];
      const fresh = new Listing(collection);
      for (const sort of SORTS)
        expect(order(listing, sort), JSON.stringify({ step: log.length, sort })).toEqual(
          order(fresh, sort),
        );
    }
  });
});
