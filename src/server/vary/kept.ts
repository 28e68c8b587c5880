/**
 * @module vary/kept
 * The names whose values carry an answer's meaning, read from the document's operation table:
 * every field a list filters or sorts on (`x-filter`, the `order` keys and `x-sort`; each segment of a
 * dotted path) and
 * every property a request body names (what a search or a cross-reference matches against). The
 * suite takes filter values, sort keys and search attributes from the answers themselves, so legal
 * variation never removes, nulls, empties or rewrites a field of one of these names, nor a field
 * that holds one, wherever it appears.
 */
import { filterParameters, PAGING, type Operation, type Schema } from '../../contract/index.js';

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Every property name declared anywhere below a schema (properties, items, combinators). */
function propertyNames(schema: Schema, into: Set<string>, seen = new Set<Schema>()): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const children: unknown[] = [schema.items, schema.additionalProperties, schema.not];
  if (isSchema(schema.properties))
    for (const [name, sub] of Object.entries(schema.properties)) {
      into.add(name);
      children.push(sub);
    }
  for (const group of [schema.allOf, schema.oneOf, schema.anyOf])
    if (Array.isArray(group)) children.push(...(group as unknown[]));
  for (const child of children) if (isSchema(child)) propertyNames(child, into, seen);
}

/** The kept names of a contract's operations (computed once, when variation is on). */
export function keptNames(operations: readonly Operation[]): ReadonlySet<string> {
  const names = new Set<string>();
  for (const op of operations) {
    // A filter without `x-filter` reads the field of its own name (or a relation of that name).
    const fields = filterParameters(op).map((p) => p.filter?.field ?? p.name);
    const order = op.parameters.find((p) => p.in === 'query' && p.name === PAGING.order);
    if (order) {
      const keys = isSchema(order.schema.items) ? order.schema.items.enum : undefined;
      // A sort key `x-sort` does not map sorts by the field of its own name.
      for (const key of Array.isArray(keys) ? keys : [])
        fields.push(order.sortFields?.[String(key)] ?? String(key));
    }
    for (const field of fields) for (const segment of field.split('.')) names.add(segment);
    if (op.requestBody) propertyNames(op.requestBody.schema, names);
  }
  return names;
}
