/**
 * @module support/records
 * What the suite reads out of the document about operations and records, so no check keeps its
 * own list: which operations are lists or by-ID lookups, which field identifies a record, which
 * list feeds a by-ID lookup, and how a filter parameter maps onto the fields of a record.
 */
import {
  PAGING,
  fieldNamedBy,
  offsetForPage,
  offsetUnitOf,
  type Contract,
  type FilterMatch,
  type Operation,
  type Parameter,
  type Schema,
} from '../../contract/index.js';
import type { Scope } from './context.js';

// The paging names and the filter parameters are the document's reading (src/contract); the
// checks take them from here with the rest of what the suite reads about records.
export { filterParameters, PAGING } from '../../contract/index.js';

export type Json = unknown;
export type JsonRecord = Record<string, Json>;

export function isRecord(value: Json): value is JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function inScope(op: Operation, scope: Scope = {}): boolean {
  return scope.family === undefined || op.family === scope.family;
}

export function queryParameter(op: Operation, name: string): Parameter | undefined {
  return op.parameters.find((p) => p.in === 'query' && p.name === name);
}

/** The `offset` value that asks a list for page `page` at `limit`: the page itself, or the items before it where `offset` counts items (`x-offset: item`). */
export function offsetOfPage(op: Operation, page: number, limit: number): number {
  return offsetForPage(offsetUnitOf(op), page, limit);
}

export function pathParameters(op: Operation): Parameter[] {
  return op.parameters.filter((p) => p.in === 'path');
}

function successSchema(op: Operation): Schema | undefined {
  return op.responses.get('200')?.jsonSchema;
}

/** The item schema of a `{data: [...], pagination}` response, when the operation is a list. */
export function listItemSchema(op: Operation): Schema | undefined {
  const props = successSchema(op)?.properties as Record<string, Schema> | undefined;
  if (!props?.pagination || !props.data) return undefined;
  return (props.data.items as Schema | undefined) ?? undefined;
}

/** The scope in words, for a reason: `family documents`, or `the document`. */
export function scopeName(scope?: Scope): string {
  return scope?.family ? `family ${scope.family}` : 'the document';
}

/** GET operations answering `{data, pagination}` and taking the paging parameters. */
export function listOperations(contract: Contract, scope?: Scope): Operation[] {
  return contract.operations.filter(
    (op) =>
      op.method === 'get' &&
      inScope(op, scope) &&
      pathParameters(op).length === 0 &&
      listItemSchema(op) !== undefined &&
      queryParameter(op, PAGING.limit) !== undefined,
  );
}

/** Operations that address one record by a path parameter. */
export function byIdOperations(contract: Contract, scope?: Scope): Operation[] {
  return contract.operations.filter((op) => inScope(op, scope) && pathParameters(op).length === 1);
}

/** The first `required` property of a schema (through `allOf`): the record's identifier. */
export function identifierOf(schema: Schema | undefined): string | undefined {
  if (!schema) return undefined;
  const required = schema.required as string[] | undefined;
  if (required?.length) return required[0];
  for (const member of (schema.allOf as Schema[] | undefined) ?? []) {
    const found = identifierOf(member);
    if (found) return found;
  }
  return undefined;
}

/** Identifier of a record of this list. */
export function idOf(op: Operation, record: Json): string | undefined {
  const field = identifierOf(listItemSchema(op));
  const value = field && isRecord(record) ? record[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** The list an identifier for a by-ID operation comes from: the nearest ancestor path that is a list. */
export function sourceListOf(contract: Contract, byId: Operation): Operation | undefined {
  const lists = listOperations(contract);
  const segments = byId.path.split('/');
  for (let n = segments.length - 1; n > 1; n--) {
    const found = lists.find((l) => l.path === segments.slice(0, n).join('/'));
    if (found) return found;
  }
  return undefined;
}

/**
 * The record field holding the value for a path parameter: the field whose words contain the
 * parameter's words in order (`dcp_id` -> `dcpDocumentId`), else the record's identifier.
 */
export function fieldForPathParameter(
  param: string,
  itemSchema: Schema | undefined,
): string | undefined {
  return (
    fieldNamedBy(param, Object.keys(collectProperties(itemSchema))) ?? identifierOf(itemSchema)
  );
}

/** Declared properties of a schema, through `allOf`. */
export function collectProperties(schema: Schema | undefined): Record<string, Schema> {
  if (!schema) return {};
  const own = (schema.properties as Record<string, Schema> | undefined) ?? {};
  return Object.assign(
    {},
    ...((schema.allOf as Schema[] | undefined) ?? []).map(collectProperties),
    own,
  ) as Record<string, Schema>;
}

export interface FilterTarget {
  /** Record field the filter reads (`revisionDate` for `documentRevisionDateStart`), from its `x-filter`. */
  field: string;
  kind: FilterMatch;
  /** Exact equality is the only reasonable reading: the parameter has an enum or is not text. */
  exact?: boolean;
}

/** What a filter reads and how it matches, as its `x-filter` says; a relation (none) is an exact match on its own name. */
export function filterTarget(param: Parameter): FilterTarget {
  const exact = Array.isArray(param.schema.enum) || param.schema.type !== 'string';
  return param.filter
    ? { field: param.filter.field, kind: param.filter.match, exact }
    : { field: param.name, kind: 'exact', exact };
}

/** How a finding names a match kind: "only records whose <field> <verb> <value>". */
export const MATCH_VERBS: Record<FilterMatch, string> = {
  exact: 'is',
  prefix: 'starts with',
  contains: 'contains',
  from: 'is on or after',
  to: 'is on or before',
  include: 'is false unless included, for',
};

function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** The value at a record field named as the document names it: `status`, or a dotted path such as `distiInventory.quantity`. */
export function fieldAt(record: Json, field: string): Json {
  let value: Json = record;
  for (const segment of field.split('.')) value = isRecord(value) ? value[segment] : undefined;
  return value;
}

/** Every primitive inside a value (arrays and objects flattened). */
export function leaves(value: Json): (string | number | boolean)[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap(leaves);
  if (isRecord(value)) return Object.values(value).flatMap(leaves);
  return [value as string | number | boolean];
}

/**
 * The values a filter on `field` sees in a record: a top-level field of that name (ignoring case
 * and `_`: `product_family` reads `productFamily`), else that field one level down
 * (`productId` on a document reads `product[].productId`). Undefined when the record has no such field.
 */
export function fieldValues(
  record: Json,
  field: string,
): (string | number | boolean)[] | undefined {
  if (!isRecord(record)) return undefined;
  const wanted = normalizeName(field);
  const top = Object.keys(record).find((k) => normalizeName(k) === wanted);
  if (top !== undefined) return leaves(record[top]);
  let found = false;
  const values: (string | number | boolean)[] = [];
  for (const child of Object.values(record)) {
    for (const element of Array.isArray(child) ? child : [child]) {
      if (!isRecord(element)) continue;
      const key = Object.keys(element).find((k) => normalizeName(k) === wanted);
      if (key !== undefined) {
        found = true;
        values.push(...leaves(element[key]));
      }
    }
  }
  return found ? values : undefined;
}

/** A value of the parameter's type (and enum) taken from a record, to filter by. */
export function filterValueFrom(record: Json, param: Parameter): string | undefined {
  const target = filterTarget(param);
  const values = fieldValues(record, target.field);
  if (!values) return undefined;
  const type = param.schema.type;
  const allowed = param.schema.enum as unknown[] | undefined;
  const pick = values.find(
    (v) =>
      (type === 'boolean'
        ? typeof v === 'boolean'
        : type === 'integer' || type === 'number'
          ? typeof v === 'number'
          : typeof v === 'string' && v !== '') &&
      (!allowed || allowed.includes(v)),
  );
  if (pick === undefined) return undefined;
  const text = String(pick);
  switch (target.kind) {
    // Range filters on dates take the `YYYY-MM-DD` part of a date or date-time.
    case 'from':
    case 'to':
      return dayOf(text);
    // A shorter piece of the value, so the filter is seen to match more than equality.
    case 'prefix':
      return text.slice(0, Math.max(1, Math.ceil(text.length / 2)));
    case 'contains':
      return text.length > 2 ? text.slice(1, -1) : text;
    default:
      return text;
  }
}

/** The `YYYY-MM-DD` day of a date in any format `Date.parse` reads (ISO strings as written). */
export function dayOf(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}/.test(value)) return value.slice(0, 'YYYY-MM-DD'.length);
  const t = Date.parse(value);
  return Number.isNaN(t) ? value : new Date(t).toISOString().slice(0, 'YYYY-MM-DD'.length);
}

/**
 * Whether a record can pass a filter under some reasonable reading: text matches ignore case, and
 * where the source does not say how free text matches (an `exact` filter on a text field without
 * an enum: which category level, whole or part), containing the value counts; date bounds are
 * inclusive and compare days whatever the date format.
 */
export function recordMatches(record: Json, target: FilterTarget, value: string): boolean {
  const values = fieldValues(record, target.field) ?? [];
  const wanted = value.toLowerCase();
  switch (target.kind) {
    case 'exact':
      return values.some((v) =>
        target.exact
          ? String(v).toLowerCase() === wanted
          : String(v).toLowerCase().includes(wanted),
      );
    case 'prefix':
      return values.some((v) => String(v).toLowerCase().startsWith(wanted));
    case 'contains':
      return values.some((v) => String(v).toLowerCase().includes(wanted));
    case 'include':
      return wanted === 'true' || values.every((v) => v !== true);
    default:
      return values.some((v) => {
        const day = dayOf(String(v));
        return target.kind === 'from' ? day >= value : day <= value;
      });
  }
}
