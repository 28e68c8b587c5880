/**
 * @module checks/sorting
 * Sort order on every list that takes `order`: each allowed property (read from the parameter's
 * enum in the document) in each allowed direction, the documented default, and multi-key sorts
 * with mixed directions. Neither the source nor the reference names a collation, where nulls go,
 * or how ties break, so a page passes when it is sorted under any reasonable reading: byte order,
 * case-insensitive or locale collation (the same for every key), nulls first or last; dates
 * compare as dates whatever their format; ties may come in any order.
 */
import type { Operation } from '../../contract/index.js';
import type { TargetExchange } from '../support/client.js';
import { applicable, type Check } from '../support/context.js';
import { show } from '../support/findings.js';
import { Probe } from '../support/probe.js';
import {
  PAGING,
  fieldAt,
  isRecord,
  listOperations,
  queryParameter,
  scopeName,
  type Json,
} from '../support/records.js';

/** Records per sorted page: enough to see an order, small enough for any target. */
const SORT_SAMPLE = 50;

type Key = { field: string; direction: string };

/** Ways to compare two strings a conforming server may use. */
const COLLATIONS: Record<string, (a: string, b: string) => number> = {
  'case-insensitive': (a, b) => {
    const la = a.toLowerCase();
    const lb = b.toLowerCase();
    return la < lb ? -1 : la > lb ? 1 : 0;
  },
  byte: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  locale: new Intl.Collator('en').compare,
};
type Collation = keyof typeof COLLATIONS;

/** A date or date-time in any format `Date.parse` reads (not a bare number). */
function asTime(value: string): number | undefined {
  if (/^\s*-?\d+(\.\d+)?\s*$/.test(value) || !/\d/.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/** Order of two values under one collation: numbers numerically, dates as dates, nulls last (or first). */
export function compareValues(
  a: Json,
  b: Json,
  collation: Collation = 'case-insensitive',
  nullsFirst = false,
): number {
  if (a === b) return 0;
  const nullA = a === null || a === undefined;
  const nullB = b === null || b === undefined;
  if (nullA || nullB) return nullA && nullB ? 0 : (nullA ? 1 : -1) * (nullsFirst ? -1 : 1);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const ta = asTime(String(a));
  const tb = asTime(String(b));
  if (ta !== undefined && tb !== undefined) return ta - tb;
  return COLLATIONS[collation](String(a), String(b));
}

function compareBy(
  keys: Key[],
  a: Json,
  b: Json,
  collation: Collation,
  nullsFirst: boolean,
): number {
  for (const { field, direction } of keys) {
    const c = compareValues(fieldAt(a, field), fieldAt(b, field), collation, nullsFirst);
    if (c !== 0) return direction === 'desc' ? -c : c;
  }
  return 0;
}

/**
 * The first out-of-order position of a page under the reading that gets furthest, or -1 when some
 * reading (collation x null placement) sorts the whole page.
 */
export function firstUnsorted(data: readonly Json[], keys: Key[]): number {
  let furthest = 0;
  for (const collation of Object.keys(COLLATIONS)) {
    for (const nullsFirst of [false, true]) {
      let i = 1;
      while (i < data.length && compareBy(keys, data[i - 1], data[i], collation, nullsFirst) <= 0)
        i++;
      if (i >= data.length) return -1;
      furthest = Math.max(furthest, i);
    }
  }
  return furthest;
}

function enumOf(op: Operation, name: string): string[] {
  const items = queryParameter(op, name)?.schema.items as { enum?: string[] } | undefined;
  return items?.enum ?? [];
}

function defaultsOf(op: Operation, name: string): string[] {
  return (queryParameter(op, name)?.schema.default as string[] | undefined) ?? [];
}

/** A finding when the page is not sorted by `keys` under any reasonable reading. */
function verifySorted(
  probe: Probe,
  op: Operation,
  ex: TargetExchange,
  keys: Key[],
  label: string,
): void {
  if (probe.refused(ex)) return;
  const data = isRecord(ex.json) && Array.isArray(ex.json.data) ? ex.json.data : [];
  const i = firstUnsorted(data, keys);
  if (i < 0) return;
  const values = (r: Json) => keys.map((k) => fieldAt(r, k.field));
  probe.add(op, ex, {
    rule: 'sort-order',
    source: queryParameter(op, PAGING.order)?.source ?? op.source,
    pointer: `/data/${i}/${keys[0].field.replace(/\./g, '/')}`,
    expected: `${label}: item ${i - 1} ${show(values(data[i - 1]))} sorts before item ${i} (under byte, case-insensitive or locale collation)`,
    actual: show(values(data[i])),
    message: `records are not sorted by ${label}`,
  });
}

/** One sortable list and what every sorted request to it shares. */
interface SortableList {
  probe: Probe;
  op: Operation;
  /** The page size asked for. */
  limit: string;
  /** The allowed sort properties and directions (the parameters' enums). */
  fields: string[];
  directions: string[];
}

/** A sort key: reads the record field `x-sort` maps the property to, else the field of its name. */
function keyOf(op: Operation, name: string, direction: string): Key {
  const sortFields = queryParameter(op, PAGING.order)?.sortFields ?? {};
  return { field: sortFields[name] ?? name, direction };
}

/** Asks for a page sorted by `names` in `directions` (comma-joined) and verifies its order. */
async function checkSortedBy(list: SortableList, names: string[], dirs: string[]): Promise<void> {
  const { probe, op, limit } = list;
  const ex = await probe.call(op, {
    query: [
      [PAGING.order, names.join(',')],
      [PAGING.direction, dirs.join(',')],
      [PAGING.limit, limit],
    ],
    expectStatus: [200],
    requestSource: queryParameter(op, PAGING.order)?.source ?? op.source,
  });
  verifySorted(
    probe,
    op,
    ex,
    names.map((name, k) => keyOf(op, name, dirs[k])),
    `${names.join(',')} ${dirs.join(',')}`,
  );
}

/** The documented default order, when the document states one. */
async function checkDefaultOrder(list: SortableList): Promise<void> {
  const { probe, op, limit } = list;
  const defaults = defaultsOf(op, PAGING.order);
  const defaultDirection = defaultsOf(op, PAGING.direction)[0];
  if (defaults.length === 0 || !defaultDirection) return;
  const ex = await probe.call(op, { query: [[PAGING.limit, limit]], expectStatus: [200] });
  verifySorted(
    probe,
    op,
    ex,
    defaults.map((name) => keyOf(op, name, defaultDirection)),
    `the default order ${defaults.join(',')} ${defaultDirection}`,
  );
}

/**
 * Multi-key: each neighbouring pair of properties in both orders (so a low-cardinality key leads
 * and the second key decides ties), once with each mix of directions.
 */
async function checkKeyPairs(list: SortableList): Promise<void> {
  const { fields, directions } = list;
  const pairs = fields.slice(1).flatMap((f, i) => [
    [fields[i], f],
    [f, fields[i]],
  ]);
  const mix = [directions[0], directions[directions.length - 1]];
  for (const pair of pairs)
    for (const dirs of [mix, [...mix].reverse()]) await checkSortedBy(list, pair, dirs);
}

export const checkSorting: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  const sortable = listOperations(ctx.contract, scope).filter(
    (op) => enumOf(op, PAGING.order).length > 0 && enumOf(op, PAGING.direction).length > 0,
  );
  for (const op of applicable(
    sortable,
    `no list with an order and a direction in ${scopeName(scope)}`,
  )) {
    const max = Number(queryParameter(op, PAGING.limit)?.schema.maximum ?? SORT_SAMPLE);
    const list: SortableList = {
      probe,
      op,
      limit: String(Math.min(SORT_SAMPLE, max)),
      fields: enumOf(op, PAGING.order),
      directions: enumOf(op, PAGING.direction),
    };
    await checkDefaultOrder(list);
    for (const field of list.fields)
      for (const direction of list.directions) await checkSortedBy(list, [field], [direction]);
    await checkKeyPairs(list);
  }
  return probe.result();
};
