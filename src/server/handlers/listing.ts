/**
 * @module listing
 * Filter -> sort -> page for every list endpoint, over real indexes built once per collection:
 * a sorted position index per order signature, an inverted index per exact filter, a sorted value
 * index per prefix or date-range filter, a trigram index per substring filter, and a bounded cache
 * of filtered results. Which record field a parameter reads and how it matches comes from the
 * document (`x-filter` on the parameter, `x-sort` on `order`), never from the parameter's name.
 * A page costs O(limit) once its index exists, whatever the offset, so the last page is as cheap
 * as the first.
 */
import {
  compareValues,
  declaresField,
  filterParameters,
  itemsSkipped,
  listItemSchema,
  offsetUnitOf,
  type FilterMatch,
  type InputProblem,
  type Operation,
  type Parameter,
} from '../../contract/index.js';
import type { Collection, FieldValue } from '../../dataset/dataset.js';
import { Lru } from '../lru.js';

export type Direction = 'asc' | 'desc';

export interface SortKey {
  /** The record field sorted by (the `order` key mapped through `x-sort`). */
  field: string;
  direction: Direction;
}

export interface Filter {
  /** The query parameter that asked for it. */
  param: string;
  /** The record field it reads. */
  field: string;
  match: FilterMatch;
  value: string | number | boolean;
}

export interface ListQuery {
  limit: number;
  /** Items skipped before the page: the API's `offset`, times `limit` where it counts pages (`x-offset`). */
  offset: number;
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

const FILTER_CACHE_ENTRIES = 256;
const FILTER_CACHE_BYTES = 64 * 1024 * 1024;
const SORT_CACHE_ENTRIES = 32;
/** Substring search reads trigram postings; shorter needles scan the distinct values once per query (cached). */
const GRAM = 3;

/** The filter a parameter value asks for, or undefined when the value means "no filter". */
function filterOf(param: Parameter, value: string | number | boolean): Filter | undefined {
  if (!param.filter)
    throw new Error(
      `${param.name}: a list filter parameter needs x-filter in the document, or a handler that serves it as a relation`,
    );
  const { field, match, any } = param.filter;
  if (any !== undefined && normalize(value) === normalize(any)) return undefined;
  // `include`: true widens the list to every record; false (the default) leaves out the flagged ones.
  if (match === 'include' && value === true) return undefined;
  return { param: param.name, field, match, value };
}

const declaredFields = new WeakMap<Operation, Map<string, boolean>>();

/**
 * Whether the served release's record declares the field a sort key orders by. A key whose field
 * arrives in a later release (`last_updated` sorts by `distiInventory.updated`, which arrives in
 * 1.2.0) orders nothing in an older one: every record ties on it (DECISIONS 85).
 */
function ordersBy(op: Operation, field: string): boolean {
  let fields = declaredFields.get(op);
  if (!fields) declaredFields.set(op, (fields = new Map<string, boolean>()));
  let declared = fields.get(field);
  if (declared === undefined) {
    const items = listItemSchema(op);
    fields.set(field, (declared = items === undefined || declaresField(items, field)));
  }
  return declared;
}

/**
 * Turns an operation's validated query into a `ListQuery`, checking the rules the schema cannot:
 * one direction for all keys or one per key, and no key twice. `relation` names a parameter the
 * handler serves itself (a relation of the dataset rather than a field of the record).
 */
export function toListQuery(
  op: Operation,
  query: Record<string, unknown>,
  relation?: string,
): { query: ListQuery; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const order = (query.order as string[] | undefined) ?? [];
  const directions = (query.orderDirection as Direction[] | undefined) ?? ['desc'];
  if (new Set(order).size !== order.length) {
    problems.push({
      in: 'query',
      name: 'order',
      rule: 'each sort property at most once',
      message: 'query parameter "order" names a property twice',
      received: order.join(','),
    });
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
  for (const param of filterParameters(op)) {
    const value = query[param.name] as string | number | boolean | undefined;
    if (value === undefined || param.name === relation) continue;
    const filter = filterOf(param, value);
    if (filter) filters.push(filter);
  }
  const sortFields =
    op.parameters.find((p) => p.in === 'query' && p.name === 'order')?.sortFields ?? {};
  const limit = query.limit as number;
  return {
    query: {
      limit,
      offset: itemsSkipped(offsetUnitOf(op), query.offset as number, limit),
      sort: order
        .map((key, i) => ({
          field: sortFields[key] ?? key,
          direction: directions.length === 1 ? directions[0] : directions[i],
        }))
        .filter((key) => ordersBy(op, key.field)),
      filters,
    },
    problems,
  };
}

/** The key an equality filter and the inverted index agree on: strings match case-insensitively. */
function normalize(value: string | number | boolean): string {
  return typeof value === 'string' ? value.toLowerCase() : String(value);
}

/** Positions in sort order, and each position's place in it (-1: not listed). */
interface SortIndex {
  sort: SortKey[];
  order: Int32Array;
  rank: Int32Array;
}

/**
 * The order of two positions under sort keys: each key's values compared (`compareValues`, the
 * key's direction), ties broken by identifier ascending, whatever the direction.
 */
function comparator(
  sort: readonly SortKey[],
  value: (i: number, key: number) => FieldValue,
  id: (i: number) => string,
): (a: number, b: number) => number {
  const signs = sort.map((key) => (key.direction === 'asc' ? 1 : -1));
  return (a, b) => {
    for (let k = 0; k < signs.length; k++) {
      const c = compareValues(value(a, k), value(b, k));
      if (c !== 0) return signs[k] * c;
    }
    const ia = id(a);
    const ib = id(b);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  };
}

function ranks(order: Int32Array, size: number): Int32Array {
  const rank = new Int32Array(size).fill(-1);
  for (let r = 0; r < order.length; r++) rank[order[r]] = r;
  return rank;
}

/** One value of a record's field, as the sorted value index and the trigram index keep it. */
interface ValueIndex {
  /** Normalized values, ascending; a multi-valued record appears once per value. */
  keys: string[];
  /** `positions[k]` is the record holding `keys[k]`. */
  positions: Int32Array;
}

/** The indexes of one collection; built lazily, cached within bounds, never changed in place. */
export class Listing<T> {
  readonly #sorted = new Lru<string, SortIndex>(SORT_CACHE_ENTRIES);
  readonly #inverted = new Map<string, Map<string, Int32Array>>();
  readonly #values = new Map<string, ValueIndex>();
  readonly #grams = new Map<string, Map<string, Int32Array>>();
  readonly #complements = new Map<string, Int32Array>();
  readonly #filtered = new Lru<string, Int32Array>(
    FILTER_CACHE_ENTRIES,
    FILTER_CACHE_BYTES,
    (a) => a.byteLength,
  );

  constructor(readonly collection: Collection<T>) {}

  /** One page of positions for the query. */
  page(query: ListQuery, within?: readonly number[]): Page {
    const matches = this.matching(query.sort, query.filters, within);
    const { offset } = query;
    const end = Math.min(offset + query.limit, matches.length);
    const positions = offset < matches.length ? matches.subarray(offset, end) : new Int32Array(0);
    return {
      positions,
      offset,
      limit: query.limit,
      total: matches.length,
      hasMore: end < matches.length,
    };
  }

  /** Every matching position, in sort order. `within` restricts the candidates (e.g. a product's parts). */
  matching(sort: SortKey[], filters: Filter[], within?: readonly number[]): Int32Array {
    const sorted = this.#sortIndex(sort);
    if (filters.length === 0 && !within) return sorted.order;
    const cacheKey = `${signature(sort)}|${JSON.stringify(filters.map((f) => [f.field, f.match, f.value]))}|${within ? within.join(',') : ''}`;
    return this.#filtered.getOrCreate(cacheKey, () => {
      // Smallest candidate list first, so each intersection only shrinks it.
      const lists = filters.map((f) => this.#hits(f));
      if (within) lists.push(Int32Array.from(within));
      lists.sort((a, b) => a.length - b.length);
      let result = new Set(lists[0]);
      for (const list of lists.slice(1)) {
        if (result.size === 0) break;
        const next = new Set<number>();
        for (const i of list) if (result.has(i)) next.add(i);
        result = next;
      }
      const rank = sorted.rank;
      // A removed record (rank -1) has no place in any list.
      return Int32Array.from(result)
        .filter((i) => rank[i] >= 0)
        .sort((a, b) => rank[a] - rank[b]);
    });
  }

  /** Positions one filter lets through (unordered; a multi-valued record may repeat). */
  #hits(filter: Filter): Int32Array {
    const needle = normalize(filter.value);
    switch (filter.match) {
      case 'exact':
        return this.#postings(filter.field).get(needle) ?? new Int32Array(0);
      case 'include':
        // value false: every record whose flag is not true.
        return this.#without(filter.field, 'true');
      case 'prefix':
        return this.#range(filter.field, needle, `${needle}\uffff`);
      case 'from':
        return this.#range(filter.field, needle, undefined);
      case 'to':
        // The date part is inclusive: `2024-03-05T10:00:00Z` is on or before `2024-03-05`.
        return this.#range(filter.field, undefined, `${needle}\uffff`);
      case 'contains':
        return this.#containing(filter.field, needle);
    }
  }

  /** Builds the default order's index now, so the first request does not pay for it. */
  warm(sort: SortKey[]): void {
    this.#sortIndex(sort);
  }

  #sortIndex(sort: SortKey[]): SortIndex {
    return this.#sorted.getOrCreate(signature(sort), () => {
      const { collection } = this;
      const size = collection.size;
      const columns = sort.map((key) => {
        const column = new Array<FieldValue>(size);
        for (let i = 0; i < size; i++) column[i] = collection.field(i, key.field);
        return column;
      });
      const ids = new Array<string>(size);
      for (let i = 0; i < size; i++) ids[i] = collection.id(i);
      const present = collection.present;
      const order = present
        ? Int32Array.from({ length: size }, (_, i) => i).filter((i) => present(i))
        : Int32Array.from({ length: size }, (_, i) => i);
      order.sort(
        comparator(
          sort,
          (i, k) => columns[k][i],
          (i) => ids[i],
        ),
      );
      return { sort, order, rank: ranks(order, size) };
    });
  }

  /**
   * A listing of `collection`, which holds the same records as this one's but at `changed`
   * positions (a test's record edits): each sort index built so far is carried over with the
   * changed positions taken out and put back where their values now sort, so an edit costs
   * O(n + k log n) instead of a fresh O(n log n) sort. Filter indexes are built anew, on demand.
   */
  derive(collection: Collection<T>, changed: readonly number[]): Listing<T> {
    const next = new Listing(collection);
    const out = new Set(changed);
    for (const [key, index] of this.#sorted.entries()) {
      const cmp = comparator(
        index.sort,
        (i, k) => collection.field(i, index.sort[k].field),
        (i) => collection.id(i),
      );
      const kept = index.order.filter((i) => !out.has(i));
      const back = changed
        .filter((i) => i < collection.size && (collection.present?.(i) ?? true))
        .sort(cmp);
      const order = new Int32Array(kept.length + back.length);
      let from = 0;
      let to = 0;
      for (const i of back) {
        // First kept position that sorts after i (ties cannot happen: identifiers are unique).
        let lo = from;
        let hi = kept.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (cmp(kept[mid], i) < 0) lo = mid + 1;
          else hi = mid;
        }
        order.set(kept.subarray(from, lo), to);
        to += lo - from;
        order[to++] = i;
        from = lo;
      }
      order.set(kept.subarray(from), to);
      next.#sorted.set(key, { sort: index.sort, order, rank: ranks(order, collection.size) });
    }
    return next;
  }

  /** Every normalized value of record i's field (none for null). */
  #valuesOf(i: number, field: string): string[] {
    const value = this.collection.field(i, field);
    const values = Array.isArray(value) ? value : [value];
    return [
      ...new Set(
        values
          .filter((x): x is string | number | boolean => x !== null && x !== undefined)
          .map(normalize),
      ),
    ];
  }

  /** Inverted index of one field: normalized value -> positions ascending. Multi-valued fields list a record under each value. */
  #postings(field: string): Map<string, Int32Array> {
    let index = this.#inverted.get(field);
    if (!index) {
      index = postingLists(this.collection.size, (i) => this.#valuesOf(i, field));
      this.#inverted.set(field, index);
    }
    return index;
  }

  /** Positions whose field is not `value` (null included): the complement of a posting list, kept. */
  #without(field: string, value: string): Int32Array {
    const key = `${field}\0${value}`;
    let kept = this.#complements.get(key);
    if (!kept) {
      const excluded = this.#postings(field).get(value) ?? new Int32Array(0);
      kept = new Int32Array(this.collection.size - excluded.length);
      // Both ascending: one merge pass.
      for (let i = 0, e = 0, k = 0; i < this.collection.size; i++) {
        if (e < excluded.length && excluded[e] === i) e++;
        else kept[k++] = i;
      }
      this.#complements.set(key, kept);
    }
    return kept;
  }

  /** Sorted value index of one field, for prefix and range look-ups by binary search. */
  #valueIndex(field: string): ValueIndex {
    let index = this.#values.get(field);
    if (!index) {
      const pairs: [string, number][] = [];
      for (let i = 0; i < this.collection.size; i++)
        for (const v of this.#valuesOf(i, field)) pairs.push([v, i]);
      pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
      index = { keys: pairs.map((p) => p[0]), positions: Int32Array.from(pairs.map((p) => p[1])) };
      this.#values.set(field, index);
    }
    return index;
  }

  /** Positions whose value v satisfies `low <= v < high` (either bound may be open). */
  #range(field: string, low: string | undefined, high: string | undefined): Int32Array {
    const { keys, positions } = this.#valueIndex(field);
    const from = low === undefined ? 0 : lowerBound(keys, low);
    const to = high === undefined ? keys.length : lowerBound(keys, high);
    return positions.slice(from, Math.max(from, to));
  }

  /** Positions whose value contains the needle: trigram postings narrow, the values confirm. */
  #containing(field: string, needle: string): Int32Array {
    const { keys, positions } = this.#valueIndex(field);
    if (needle.length < GRAM) {
      const hits: number[] = [];
      for (let k = 0; k < keys.length; k++) if (keys[k].includes(needle)) hits.push(positions[k]);
      return Int32Array.from(hits);
    }
    const grams = this.#gramIndex(field);
    const lists = gramsOf(needle).map((g) => grams.get(g) ?? new Int32Array(0));
    lists.sort((a, b) => a.length - b.length);
    const hits: number[] = [];
    // Entries of the value index (not records) are what the gram postings list; confirm each.
    for (const k of lists[0])
      if (lists.every((l) => l === lists[0] || includesSorted(l, k)) && keys[k].includes(needle))
        hits.push(positions[k]);
    return Int32Array.from(hits);
  }

  /** Trigram -> entries of the field's value index carrying it, ascending. */
  #gramIndex(field: string): Map<string, Int32Array> {
    let index = this.#grams.get(field);
    if (!index) {
      const { keys } = this.#valueIndex(field);
      index = postingLists(keys.length, (k) => new Set(gramsOf(keys[k])));
      this.#grams.set(field, index);
    }
    return index;
  }
}

/** Term -> the entries 0..count-1 carrying it, ascending (`termsOf` yields each term of an entry once). */
function postingLists(
  count: number,
  termsOf: (entry: number) => Iterable<string>,
): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  for (let entry = 0; entry < count; entry++) {
    for (const term of termsOf(entry)) {
      let list = lists.get(term);
      if (!list) lists.set(term, (list = []));
      list.push(entry);
    }
  }
  return new Map([...lists].map(([term, list]) => [term, Int32Array.from(list)]));
}

function signature(sort: SortKey[]): string {
  return sort.map((k) => `${k.field}:${k.direction}`).join(',');
}

/** First index whose element is >= `value` (elements ascending). */
function lowerBound<V extends string | number>(sorted: ArrayLike<V>, value: V): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Whether an ascending list holds `value`. */
function includesSorted(list: Int32Array, value: number): boolean {
  const at = lowerBound(list, value);
  return at < list.length && list[at] === value;
}

/** The overlapping three-character pieces of a normalized value. */
function gramsOf(value: string): string[] {
  const grams: string[] = [];
  for (let i = 0; i + GRAM <= value.length; i++) grams.push(value.slice(i, i + GRAM));
  return grams;
}
