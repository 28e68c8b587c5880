/**
 * @module contract/order
 * The order the mock sorts records in, and the evidence layer reads a target's default order by:
 * strings case-insensitively in code-unit order (ties by the exact code units), numbers
 * numerically, nulls (and absent values) last, anything else by its text. The document states no
 * collation (DECISIONS.md records the mock's); the suite judges a target's order more leniently
 * (src/suite/checks/sorting.ts tries several collations and dates).
 */

/** A value a record's field may hold, as far as ordering is concerned. */
export type OrderedValue = string | number | boolean | null | undefined | readonly string[];

/** Sort order of two field values: case-insensitive code-unit order for strings, nulls last. */
export function compareValues(a: OrderedValue, b: OrderedValue): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'string' && typeof b === 'string') {
    const la = a.toLowerCase();
    const lb = b.toLowerCase();
    if (la !== lb) return la < lb ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
