/**
 * @module evidence/declared
 * Which fields of a response the document does not declare, as pointer patterns, for observe.ts
 * (it keeps no personal-looking value of those). One reading of the document for everything that
 * builds a profile: the suite, the proxy and recordings. Also what the document declares at a
 * place (its types, enum, format), which drift.ts reads so a change the document allows is no drift.
 */
import {
  collectUndeclared,
  declaredResponse,
  segmentsOf,
  type Operation,
  type Schema,
} from '../contract/index.js';

/**
 * The undeclared fields of `body` as the answer of `operation` with `status`; undefined (every
 * field counts as undeclared) when the operation is unknown or the status declares no JSON body,
 * and when the list would be incomplete (more patterns than the bound, or a name cut), so a
 * personal-looking value is never kept for want of a pattern.
 */
export function undeclaredPatterns(
  operation: Operation | undefined,
  status: number,
  body: unknown,
): string[] | undefined {
  const schema = operation && declaredResponse(operation, status)?.jsonSchema;
  if (!schema || body === undefined) return undefined;
  const { fields, omitted, cut } = collectUndeclared(schema, body);
  return omitted > 0 || cut ? undefined : fields.map((f) => f.pattern);
}

/** What the document says of one place of an answer (a pointer pattern), for drift.ts. */
export interface DeclaredPlace {
  /** JSON types it allows there (`type`, from every branch); undefined when none states one. */
  types?: ReadonlySet<string>;
  /** Some branch lists its values (`enum`, `const`): a new value outside them the validators fail. */
  enumerated: boolean;
  /** String formats it declares (`format`); empty when it is silent on format. */
  formats: ReadonlySet<string>;
}

/** The document's word on a place: operation, status and pointer pattern (`/data/*\/x`). */
export type DeclaredLookup = (
  operationId: string,
  status: string,
  pointer: string,
) => DeclaredPlace | undefined;

function isSchemaObject(value: unknown): value is Schema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A schema with its `allOf` members and every `oneOf`/`anyOf` branch, recursively: all it may be. */
function everyBranch(schema: Schema, out: Schema[] = [], seen = new Set<Schema>()): Schema[] {
  if (seen.has(schema)) return out;
  seen.add(schema);
  out.push(schema);
  for (const group of [schema.allOf, schema.oneOf, schema.anyOf])
    if (Array.isArray(group))
      for (const member of group) if (isSchemaObject(member)) everyBranch(member, out, seen);
  return out;
}

/** The schemas that may describe the value under one segment (`*` an array item) of `schemas`. */
function below(schemas: readonly Schema[], segment: string): Schema[] {
  const out: Schema[] = [];
  for (const s of schemas.flatMap((schema) => everyBranch(schema))) {
    const properties = isSchemaObject(s.properties) ? s.properties : undefined;
    if (segment === '*' && isSchemaObject(s.items)) out.push(s.items);
    else if (
      properties &&
      Object.hasOwn(properties, segment) &&
      isSchemaObject(properties[segment])
    )
      out.push(properties[segment]);
    else if (isSchemaObject(s.additionalProperties)) out.push(s.additionalProperties);
  }
  return out;
}

function typesOf(schema: Schema): unknown[] | undefined {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as unknown[];
  const values = 'const' in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : [];
  if (values.length === 0) return undefined;
  return values.map((v) =>
    v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v,
  );
}

/** What the schemas reached at a place declare; undefined when no schema reaches it (undeclared). */
export function declaredPlace(schemas: readonly Schema[]): DeclaredPlace | undefined {
  const parts = schemas.flatMap((schema) => everyBranch(schema));
  if (parts.length === 0) return undefined;
  const types = new Set<string>();
  let silent = false;
  const formats = new Set<string>();
  let enumerated = false;
  // A branch that states no type may be anything, unless another part of its allOf says.
  for (const schema of schemas) {
    const own = everyBranch(schema).map(typesOf);
    if (own.every((t) => t === undefined)) silent = true;
    for (const t of own) for (const name of t ?? []) types.add(String(name));
  }
  for (const p of parts) {
    if (typeof p.format === 'string') formats.add(p.format);
    if ('const' in p || Array.isArray(p.enum)) enumerated = true;
  }
  return { types: silent ? undefined : types, enumerated, formats };
}

/**
 * The document's word on every place of every operation's answers, read once per place. A place
 * below one the document leaves open (`{}`) or does not declare is undefined: the document is silent.
 */
export function declaredLookup(operations: readonly Operation[]): DeclaredLookup {
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const memo = new Map<string, DeclaredPlace | undefined>();
  return (operationId, status, pointer) => {
    const key = `${operationId}\u0000${status}\u0000${pointer}`;
    if (memo.has(key)) return memo.get(key);
    const op = byId.get(operationId);
    const root = op && declaredResponse(op, Number(status))?.jsonSchema;
    let schemas: Schema[] = root ? [root] : [];
    for (const segment of segmentsOf(pointer)) schemas = below(schemas, segment);
    const place = declaredPlace(schemas);
    memo.set(key, place);
    return place;
  };
}
