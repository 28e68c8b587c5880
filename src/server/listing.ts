/**
 * @module listing
 * Filter -> sort -> page for every list endpoint, over real indexes built once per collection:
 * a sorted position index per order signature, an inverted index per equality filter, and a
 * bounded cache of filtered results. A page costs O(limit) once its index exists, whatever the
 * offset, so the last page is as cheap as the first.
 */
import type { InputProblem, Operation } from '../contract/index.js';
import type { Collection, FieldValue } from '../fixtures/dataset.js';
import { Lru } from './lru.js';

export type Direction = 'asc' | 'desc';

export interface SortKey {
  field: string;
  direction: Direction;
}

export type Filter = { field: string; kind: 'eq'; value: string | number | boolean } | { field: string; kind: 'from' | 'to'; value: string };

export interface ListQuery {
  limit: number;
  /** Page number (the API's `offset` parameter). */
  page: number;
  sort: SortKey[];
  filters: Filter[];
}

export interface Page {
  positions: Int32Array;
  offset: number;
  limit: number;
  total: number;
  hasMore: boolean;
}

/** Parameters that shape the page rather than filter it. */
const PAGING_PARAMETERS = new Set(['limit', 'offset', 'order', 'orderDirection']);
/** Filter parameters named `<field>From`/`<field>To` bound a range (e.g. `revisionDateFrom`). */
const RANGE_SUFFIX = /^(.+)(From|To)$/;
const FILTER_CACHE_ENTRIES = 256;
const FILTER_CACHE_BYTES = 64 * 1024 * 1024;
const SORT_CACHE_ENTRIES = 32;

/**
 * Turns an operation's validated query into a `ListQuery`, checking the rules the schema cannot:
 * one direction for all keys or one per key, and no key twice.
 */
export function toListQuery(op: Operation, query: Record<string, unknown>): { query: ListQuery; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const order = (query.order as string[] | undefined) ?? [];
  const directions = (query.orderDirection as Direction[] | undefined) ?? ['desc'];
  if (new Set(order).size !== order.length) {
    problems.push({ in: 'query', name: 'order', rule: 'each sort property at most once', message: 'query parameter "order" names a property twice', received: order.join(',') });
  }
  if (order.length > 0 && directions.length !== 1 && directions.length !== order.length) {
    problems.push({
      in: 'query',
      name: 'orderDirection',
      rule: 'one direction for all sort properties, or one per property',
      message: `query parameter "orderDirection" has ${directions.length} values for ${order.length} sort properties`,
      received: directions.join(','),
    });
  }
  const filters: Filter[] = [];
  for (const param of op.parameters) {
    if (param.in !== 'query' || PAGING_PARAMETERS.has(param.name) || query[param.name] === undefined) continue;
    const value = query[param.name] as string | number | boolean;
    const range = RANGE_SUFFIX.exec(param.name);
    if (range && typeof value === 'string') filters.push({ field: range[1], kind: range[2] === 'From' ? 'from' : 'to', value });
    else filters.push({ field: param.name, kind: 'eq', value });
  }
  return {
    query: {
      limit: query.limit as number,
      page: query.offset as number,
      sort: order.map((field, i) => ({ field, direction: directions.length === 1 ? directions[0] : directions[i] })),
      filters,
    },
    problems,
  };
}

/** The key an equality filter and the inverted index agree on: strings match case-insensitively. */
function normalize(value: string | number | boolean): string {
  return typeof value === 'string' ? value.toLowerCase() : String(value);
}

/** Sort order of two field values: case-insensitive code-unit order for strings, nulls last. */
export function compareValues(a: FieldValue, b: FieldValue): number {
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

/** The indexes of one collection; built lazily, cached within bounds, never changed in place. */
export class Listing<T> {
  readonly #sorted = new Lru<string, { order: Int32Array; rank: Int32Array }>(SORT_CACHE_ENTRIES);
  readonly #inverted = new Map<string, Map<string, Int32Array>>();
  readonly #filtered = new Lru<string, Int32Array>(FILTER_CACHE_ENTRIES, FILTER_CACHE_BYTES, (a) => a.byteLength);

  constructor(readonly collection: Collection<T>) {}

  /** One page of positions for the query. */
  page(query: ListQuery, within?: readonly number[]): Page {
    const matches = this.matching(query.sort, query.filters, within);
    const offset = query.page * query.limit;
    const end = Math.min(offset + query.limit, matches.length);
    const positions = offset < matches.length ? matches.subarray(offset, end) : new Int32Array(0);
    return { positions, offset, limit: query.limit, total: matches.length, hasMore: end < matches.length };
  }

  /** Every matching position, in sort order. `within` restricts the candidates (e.g. a product's parts). */
  matching(sort: SortKey[], filters: Filter[], within?: readonly number[]): Int32Array {
    const sorted = this.#sortIndex(sort);
    if (filters.length === 0 && !within) return sorted.order;
    const cacheKey = `${signature(sort)}|${JSON.stringify(filters)}|${within ? within.join(',') : ''}`;
    return this.#filtered.getOrCreate(cacheKey, () => {
      let candidates: Int32Array | undefined = within ? Int32Array.from(within) : undefined;
      for (const filter of filters) {
        if (filter.kind !== 'eq') continue;
        const hits = this.#postings(filter.field).get(normalize(filter.value)) ?? new Int32Array(0);
        candidates = candidates ? intersect(candidates, hits) : hits;
      }
      let result = Array.from(candidates ?? sorted.order);
      for (const filter of filters) {
        if (filter.kind === 'eq') continue;
        result = result.filter((i) => inRange(this.collection.field(i, filter.field), filter));
      }
      const rank = sorted.rank;
      result.sort((a, b) => rank[a] - rank[b]);
      return Int32Array.from(result);
    });
  }

  /** Builds the default order's index now, so the first request does not pay for it. */
  warm(sort: SortKey[]): void {
    this.#sortIndex(sort);
  }

  #sortIndex(sort: SortKey[]): { order: Int32Array; rank: Int32Array } {
    return this.#sorted.getOrCreate(signature(sort), () => {
      const { collection } = this;
      const size = collection.size;
      const columns = sort.map((key) => {
        const column = new Array<FieldValue>(size);
        for (let i = 0; i < size; i++) column[i] = collection.field(i, key.field);
        return { column, sign: key.direction === 'asc' ? 1 : -1 };
      });
      const ids = new Array<string>(size);
      for (let i = 0; i < size; i++) ids[i] = collection.id(i);
      const order = new Int32Array(size);
      for (let i = 0; i < size; i++) order[i] = i;
      order.sort((a, b) => {
        for (const { column, sign } of columns) {
          const c = compareValues(column[a], column[b]);
          if (c !== 0) return sign * c;
        }
        // Stable tie-break: identifier ascending, whatever the direction.
        return ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0;
      });
      const rank = new Int32Array(size);
      for (let r = 0; r < size; r++) rank[order[r]] = r;
      return { order, rank };
    });
  }

  /** Inverted index of one field: normalized value -> positions ascending. Multi-valued fields list a record under each value. */
  #postings(field: string): Map<string, Int32Array> {
    let index = this.#inverted.get(field);
    if (!index) {
      const lists = new Map<string, number[]>();
      for (let i = 0; i < this.collection.size; i++) {
        const value = this.collection.field(i, field);
        const values = Array.isArray(value) ? value : [value];
        for (const v of new Set(values.filter((x): x is string | number | boolean => x !== null && x !== undefined).map(normalize))) {
          let list = lists.get(v);
          if (!list) lists.set(v, (list = []));
          list.push(i);
        }
      }
      index = new Map([...lists].map(([k, v]) => [k, Int32Array.from(v)]));
      this.#inverted.set(field, index);
    }
    return index;
  }
}

function signature(sort: SortKey[]): string {
  return sort.map((k) => `${k.field}:${k.direction}`).join(',');
}

/** Intersection of two position lists; `b` is ascending (a posting list). */
function intersect(a: Int32Array, b: Int32Array): Int32Array {
  const inB = new Set(b);
  return a.filter((x) => inB.has(x));
}

/** Range filters compare the date part (`YYYY-MM-DD`) of a date or date-time value, inclusive. */
function inRange(value: FieldValue, filter: Filter): boolean {
  if (typeof value !== 'string') return false;
  const day = value.slice(0, filter.value.toString().length);
  return filter.kind === 'from' ? day >= String(filter.value) : day <= String(filter.value);
}
