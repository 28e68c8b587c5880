/**
 * @module vary/kept
 * What legal variation leaves alone because an answer's meaning rests on it, read from the
 * document's operation table:
 * - kept names: every field a list filters or sorts on (`x-filter`, the `order` keys and `x-sort`;
 *   each segment of a dotted path) and every property a request body names. The suite takes filter
 *   values, sort keys and search input from the answers themselves, so a field of a kept name is
 *   never removed, nulled, emptied or rewritten, nor a field that holds one, wherever it appears.
 * - criterion names: the properties of a request body's array items (a search filter:
 *   `productPartAttributeId`, `values`, ...). An object in an answer that carries one is what such
 *   a criterion is matched against (a part's attribute and its values), so it is left whole.
 */
import { filterParameters, PAGING, type Operation, type Schema } from '../../contract/index.js';

export interface KeptFields {
  names: ReadonlySet<string>;
  criteria: ReadonlySet<string>;
}

function isSchema(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Every property name declared anywhere below a request body schema (properties, items,
 * combinators) into `names`, and those below an array's `items` also into `criteria`.
 */
function bodyNames(
  schema: Schema,
  found: { names: Set<string>; criteria: Set<string> },
  inItems = false,
  seen = new Set<Schema>(),
): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const children: unknown[] = [schema.additionalProperties, schema.not];
  if (isSchema(schema.properties))
    for (const [name, sub] of Object.entries(schema.properties)) {
      found.names.add(name);
      if (inItems) found.criteria.add(name);
      children.push(sub);
    }
  for (const group of [schema.allOf, schema.oneOf, schema.anyOf])
    if (Array.isArray(group)) children.push(...(group as unknown[]));
  for (const child of children) if (isSchema(child)) bodyNames(child, found, inItems, seen);
  if (isSchema(schema.items)) bodyNames(schema.items, found, true, seen);
}

/** The kept and criterion names of a contract's operations (computed once, when variation is on). */
export function keptFields(operations: readonly Operation[]): KeptFields {
  const found = { names: new Set<string>(), criteria: new Set<string>() };
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
    for (const field of fields) for (const segment of field.split('.')) found.names.add(segment);
    if (op.requestBody) bodyNames(op.requestBody.schema, found);
  }
  return found;
}
