/**
 * @module list-parameters
 * The document's list extensions on parameters (`x-filter`, `x-sort`, `x-offset`), checked when
 * the document is read, and the readings of them every side shares: which query parameters page
 * and sort a list, which filter it, and what `offset` counts.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import {
  FILTER_MATCHES,
  OFFSET_UNITS,
  type FilterMatch,
  type OffsetUnit,
  type Operation,
  type Parameter,
} from './model.js';

/** The query parameters the source names for paging and sorting; everything else on a list filters. */
export const PAGING = {
  limit: 'limit',
  page: 'offset',
  order: 'order',
  direction: 'orderDirection',
} as const;
const PAGING_NAMES = new Set<string>(Object.values(PAGING));

/** The list filter parameters of an operation (everything in the query but paging and sorting). */
export function filterParameters(op: Operation): Parameter[] {
  return op.parameters.filter((p) => p.in === 'query' && !PAGING_NAMES.has(p.name));
}

/** What the `offset` of a list operation counts: pages unless the document says items. */
export function offsetUnitOf(op: Operation): OffsetUnit {
  return op.parameters.find((p) => p.in === 'query' && p.name === 'offset')?.offsetUnit ?? 'page';
}

/** The items a list skips for an `offset` value (the server's reading of it). */
export function itemsSkipped(unit: OffsetUnit, offset: number, limit: number): number {
  return unit === 'item' ? offset : offset * limit;
}

/** The `offset` value that asks for page `page` at `limit` (a client's way to it). */
export function offsetForPage(unit: OffsetUnit, page: number, limit: number): number {
  return unit === 'item' ? page * limit : page;
}

/** `x-filter`, `x-sort` and `x-offset` of a parameter, checked: a document that misstates them does not load. */
export function listingExtensions(
  p: OpenAPIV3_1.ParameterObject,
  where: string,
): Pick<Parameter, 'filter' | 'sortFields' | 'offsetUnit'> {
  const raw = p as unknown as Record<string, unknown>;
  const result: Pick<Parameter, 'filter' | 'sortFields' | 'offsetUnit'> = {};
  const unit = raw['x-offset'];
  if (unit !== undefined) {
    if (!OFFSET_UNITS.includes(unit as OffsetUnit))
      throw new Error(
        `${where} ?${p.name}: x-offset must be ${OFFSET_UNITS.join(' or ')}, got ${JSON.stringify(unit)}`,
      );
    result.offsetUnit = unit as OffsetUnit;
  }
  const filter = raw['x-filter'] as Record<string, unknown> | undefined;
  if (filter !== undefined) {
    const match = filter.match as FilterMatch;
    if (typeof filter.field !== 'string' || !filter.field || !FILTER_MATCHES.includes(match)) {
      throw new Error(
        `${where} ?${p.name}: x-filter needs {field, match: ${FILTER_MATCHES.join('|')}}, got ${JSON.stringify(filter)}`,
      );
    }
    result.filter = {
      field: filter.field,
      match,
      ...(typeof filter.any === 'string' ? { any: filter.any } : {}),
    };
  }
  const sort = raw['x-sort'] as Record<string, unknown> | undefined;
  if (sort !== undefined) {
    if (
      typeof sort !== 'object' ||
      sort === null ||
      Object.values(sort).some((f) => typeof f !== 'string' || !f)
    ) {
      throw new Error(
        `${where} ?${p.name}: x-sort must map each sort key to a record field name, got ${JSON.stringify(sort)}`,
      );
    }
    result.sortFields = Object.freeze({ ...(sort as Record<string, string>) });
  }
  return result;
}
