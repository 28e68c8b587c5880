/**
 * @module checks/sorting
 * Sort order on every list that takes `order`: each allowed property (read from the parameter's
 * enum in the document) in each allowed direction, the documented default, and multi-key sorts
 * with mixed directions. Strings compare case-insensitively (the source names no collation; see
 * the decisions in the report), nulls sort last ascending.
 */
import type { Operation } from '../../src/contract/index.js';
import type { Exchange } from '../support/client.js';
import type { Check } from '../support/context.js';
import { show } from '../support/findings.js';
import { Probe } from '../support/probe.js';
import { PAGING, fieldAt, isRecord, listOperations, queryParameter, type Json } from '../support/records.js';

/** Records per sorted page: enough to see an order, small enough for any target. */
const SORT_SAMPLE = 50;

type Key = { field: string; direction: string };

/** Order of two values: strings case-insensitively, numbers numerically, nulls last. */
export function compareValues(a: Json, b: Json): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const la = String(a).toLowerCase();
  const lb = String(b).toLowerCase();
  return la < lb ? -1 : la > lb ? 1 : 0;
}

function compareBy(keys: Key[], a: Json, b: Json): number {
  for (const { field, direction } of keys) {
    const c = compareValues(fieldAt(a, field), fieldAt(b, field));
    if (c !== 0) return direction === 'desc' ? -c : c;
  }
  return 0;
}

function enumOf(op: Operation, name: string): string[] {
  const items = queryParameter(op, name)?.schema.items as { enum?: string[] } | undefined;
  return items?.enum ?? [];
}

function defaultsOf(op: Operation, name: string): string[] {
  return (queryParameter(op, name)?.schema.default as string[] | undefined) ?? [];
}

export const checkSorting: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  const verify = (op: Operation, ex: Exchange, keys: Key[], label: string) => {
    const data = isRecord(ex.json) && Array.isArray(ex.json.data) ? ex.json.data : [];
    for (let i = 1; i < data.length; i++) {
      if (compareBy(keys, data[i - 1], data[i]) > 0) {
        const values = (r: Json) => keys.map((k) => fieldAt(r, k.field));
        probe.add(op, ex, {
          rule: 'sort-order',
          source: queryParameter(op, PAGING.order)?.source ?? op.source,
          pointer: `/data/${i}/${keys[0].field.replace(/\./g, '/')}`,
          expected: `${label}: item ${i - 1} ${show(values(data[i - 1]))} sorts before item ${i}`,
          actual: show(values(data[i])),
          message: `records are not sorted by ${label}`,
        });
        return;
      }
    }
  };
  for (const op of listOperations(ctx.contract, scope)) {
    const fields = enumOf(op, PAGING.order);
    const directions = enumOf(op, PAGING.direction);
    if (fields.length === 0 || directions.length === 0) continue;
    // A sort key reads the record field `x-sort` maps it to, else the field of its own name.
    const sortFields = queryParameter(op, PAGING.order)?.sortFields ?? {};
    const key = (name: string, direction: string): Key => ({ field: sortFields[name] ?? name, direction });
    const max = Number(queryParameter(op, PAGING.limit)?.schema.maximum ?? SORT_SAMPLE);
    const limit = String(Math.min(SORT_SAMPLE, max));
    const defaults = defaultsOf(op, PAGING.order);
    const defaultDirection = defaultsOf(op, PAGING.direction)[0];
    if (defaults.length > 0 && defaultDirection) {
      const ex = await probe.call(op, { query: [[PAGING.limit, limit]], expectStatus: [200] });
      verify(op, ex, defaults.map((name) => key(name, defaultDirection)), `the default order ${defaults.join(',')} ${defaultDirection}`);
    }
    for (const field of fields) {
      for (const direction of directions) {
        const ex = await probe.call(op, { query: [[PAGING.order, field], [PAGING.direction, direction], [PAGING.limit, limit]], expectStatus: [200] });
        verify(op, ex, [key(field, direction)], `${field} ${direction}`);
      }
    }
    // Multi-key: each neighbouring pair of properties in both orders (so a low-cardinality key leads
    // and the second key decides ties), once with each mix of directions.
    const pairs = fields.slice(1).flatMap((f, i) => [[fields[i], f], [f, fields[i]]]);
    for (const pair of pairs) {
      const mix = [directions[0], directions[directions.length - 1]];
      for (const dirs of [mix, [...mix].reverse()]) {
        const ex = await probe.call(op, { query: [[PAGING.order, pair.join(',')], [PAGING.direction, dirs.join(',')], [PAGING.limit, limit]], expectStatus: [200] });
        verify(op, ex, pair.map((name, k) => key(name, dirs[k])), `${pair.join(',')} ${dirs.join(',')}`);
      }
    }
  }
  return probe.result();
};
