/**
 * @module support/undeclared
 * Finds the fields a response carries that its schema does not declare: the drift a schema without
 * `additionalProperties: false` lets through. Walks the body alongside the dereferenced schema:
 * `properties`, `allOf` (all members), `oneOf`/`anyOf` (the branches that fit the value; all of
 * them when none fits, so a misfit never invents drift), `items`, `additionalProperties`.
 */
import type { Schema } from '../../src/contract/index.js';

export interface UndeclaredField {
  /** JSON pointer of the field, e.g. `/data/3/newField`. */
  pointer: string;
  sample: unknown;
}

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asSchemas(node: unknown): Schema[] {
  return Array.isArray(node) ? node.filter(isObject) : [];
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

function typeFits(type: string, value: Json): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    default:
      return typeof value === type;
  }
}

/**
 * Whether a value fits a schema in structure: types, const/enum, required, the combinators and
 * nested properties and items. Formats and bounds are the validators' job, not needed to pick a branch.
 */
export function fits(schema: Schema, value: Json): boolean {
  const type = schema.type;
  if (typeof type === 'string' && !typeFits(type, value)) return false;
  if (Array.isArray(type) && !type.some((t) => typeFits(String(t), value))) return false;
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) return false;
  if (asSchemas(schema.allOf).some((s) => !fits(s, value))) return false;
  const oneOf = asSchemas(schema.oneOf);
  if (oneOf.length > 0 && oneOf.filter((s) => fits(s, value)).length !== 1) return false;
  const anyOf = asSchemas(schema.anyOf);
  if (anyOf.length > 0 && !anyOf.some((s) => fits(s, value))) return false;
  if (isObject(schema.not) && fits(schema.not, value)) return false;
  if (isObject(value)) {
    if (Array.isArray(schema.required) && schema.required.some((name) => !(String(name) in value))) return false;
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const [name, sub] of Object.entries(properties)) {
      if (name in value && isObject(sub) && !fits(sub, value[name])) return false;
    }
    if (schema.additionalProperties === false && Object.keys(value).some((k) => !(k in properties))) return false;
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    const items = schema.items;
    if (value.some((item) => !fits(items, item))) return false;
  }
  return true;
}

/** The schema and everything that applies with it to this value: allOf members, fitting branches. */
function applicable(schemas: Schema[], value: Json): Schema[] {
  const out: Schema[] = [];
  const visit = (schema: Schema) => {
    out.push(schema);
    for (const member of asSchemas(schema.allOf)) visit(member);
    for (const combinator of ['oneOf', 'anyOf'] as const) {
      const branches = asSchemas(schema[combinator]);
      if (branches.length === 0) continue;
      const fitting = branches.filter((b) => fits(b, value));
      for (const branch of fitting.length > 0 ? fitting : branches) visit(branch);
    }
  };
  for (const schema of schemas) visit(schema);
  return out;
}

function walk(value: Json, schemas: Schema[], pointer: string, out: UndeclaredField[]): void {
  if (schemas.length === 0) return;
  const all = applicable(schemas, value);
  if (Array.isArray(value)) {
    const items = all.map((s) => s.items).filter(isObject);
    value.forEach((item, i) => walk(item, items, `${pointer}/${i}`, out));
    return;
  }
  if (!isObject(value)) return;
  const declaresShape = all.some((s) => isObject(s.properties) || 'additionalProperties' in s);
  // A schema that says nothing about the object's fields (e.g. `received: {}`) accepts anything.
  if (!declaresShape) return;
  const open = all.map((s) => s.additionalProperties).filter(isObject);
  const freeForm = all.some((s) => s.additionalProperties === true);
  for (const [name, child] of Object.entries(value)) {
    const subs = all.flatMap((s) => (isObject(s.properties) && isObject(s.properties[name]) ? [s.properties[name] as Schema] : []));
    const where = `${pointer}/${escape(name)}`;
    if (subs.length > 0) walk(child, subs, where, out);
    else if (open.length > 0) walk(child, open, where, out);
    else if (!freeForm) out.push({ pointer: where, sample: child });
  }
}

/** Every field in `body` that `schema` does not declare, in document order. */
export function undeclaredFields(body: Json, schema: Schema | undefined): UndeclaredField[] {
  const out: UndeclaredField[] = [];
  if (schema) walk(body, [schema], '', out);
  return out;
}

/** A pointer with array indices replaced by `*`, so one drift in 50 records is one finding. */
export function pointerPattern(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/*');
}
