/**
 * @module contract/undeclared
 * Fields a response carries that the document does not declare: the drift a schema without
 * `additionalProperties: false` lets through; and, the other way round, declared fields it leaves
 * out where the document states no presence. Walks the body beside its dereferenced schema through
 * `properties`, `allOf` (every member), `oneOf`/`anyOf` (the branches that fit the value; all of
 * them when none fits, so a misfit never invents drift), `items` and `additionalProperties`.
 * Shared by the proxy and the contract suite; also the pointer patterns (`/data/*\/x`, `**`) both
 * use to group and accept drift.
 *
 * Undeclared fields are grouped by pointer pattern (array indices as `*`): a field a vendor adds to
 * every record of a page is one entry with its count, not one per record; at most
 * `MAX_UNDECLARED_PATTERNS` patterns are kept per body, the rest counted. Names are cut to
 * `MAX_NAME_LENGTH` in pointers.
 */
import type { Schema } from './model.js';
import { capName, MAX_NAME_LENGTH } from './names.js';
import { escapeSegment, pointerPattern } from './pointer.js';
import { truncate } from './truncate.js';
import { literalPattern } from './literal-pattern.js';

/** Undeclared pointer patterns one body may report; the rest are counted, not listed. */
export const MAX_UNDECLARED_PATTERNS = 100;

export interface UndeclaredField {
  /** JSON pointer of the first undeclared field of its pattern, e.g. `/data/3/newField`. */
  pointer: string;
  /** Its pattern, array indices as `*`: `/data/*\/newField`. */
  pattern: string;
  /** How many fields of the body have this pattern. */
  count: number;
  /** The first one's value (cut to a readable length when long), for the report. */
  sample: unknown;
}

/** A body's undeclared fields, one per pattern, and the fields of patterns beyond the bound. */
export interface UndeclaredFields {
  fields: UndeclaredField[];
  /** Fields left out: their patterns came after the first `maxPatterns`. */
  omitted: number;
  /** Some undeclared field's name was longer than MAX_NAME_LENGTH: its pointer names it cut. */
  cut: boolean;
}

/** Longest JSON text a sample keeps before it is cut. */
const SAMPLE_CHARS = 120;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function asSchemas(node: unknown): Schema[] {
  return Array.isArray(node) ? node.filter(isObject) : [];
}

/** A value as a report shows it: itself when short, else its JSON cut to a readable length. */
export function sampleOf(value: unknown): unknown {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'undefined';
  } catch (error) {
    // A value nested deeper than the stack allows (JSON.parse accepts what stringify cannot).
    if (error instanceof RangeError) return '(too deeply nested to show)';
    throw error;
  }
  return text.length <= SAMPLE_CHARS ? value : truncate(text, SAMPLE_CHARS, '…');
}

function typeFits(type: string, value: unknown): boolean {
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
 * nested properties and items. Formats and bounds are the validators' job, not needed to pick a
 * branch; no ajv here because this is a report of drift, the validators have judged conformance.
 */
export function fits(schema: Schema, value: unknown): boolean {
  const type = schema.type;
  if (typeof type === 'string' && !typeFits(type, value)) return false;
  if (Array.isArray(type) && !type.some((t) => typeFits(String(t), value))) return false;
  if ('const' in schema && JSON.stringify(schema.const) !== JSON.stringify(value)) return false;
  if (
    Array.isArray(schema.enum) &&
    !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))
  )
    return false;
  if (asSchemas(schema.allOf).some((s) => !fits(s, value))) return false;
  const oneOf = asSchemas(schema.oneOf);
  if (oneOf.length > 0 && oneOf.filter((s) => fits(s, value)).length !== 1) return false;
  const anyOf = asSchemas(schema.anyOf);
  if (anyOf.length > 0 && !anyOf.some((s) => fits(s, value))) return false;
  if (isObject(schema.not) && fits(schema.not, value)) return false;
  if (isObject(value)) {
    if (Array.isArray(schema.required) && schema.required.some((name) => !(String(name) in value)))
      return false;
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const [name, sub] of Object.entries(properties)) {
      if (name in value && isObject(sub) && !fits(sub, value[name])) return false;
    }
    if (schema.additionalProperties === false && Object.keys(value).some((k) => !(k in properties)))
      return false;
  }
  if (Array.isArray(value) && isObject(schema.items)) {
    const items = schema.items;
    if (value.some((item) => !fits(items, item))) return false;
  }
  return true;
}

/**
 * What a schema says regardless of the value: its `allOf` closure, and the `oneOf`/`anyOf` groups
 * inside it whose branch depends on the value. Computed once per schema object (the dereferenced
 * document shares them), so a 50-item page does not flatten the same schema 50 times.
 */
interface Shape {
  /** The schema and its `allOf` members, recursively. */
  parts: Schema[];
  /** `oneOf`/`anyOf` branch lists found in `parts`. */
  choices: Schema[][];
}

const shapes = new WeakMap<Schema, Shape>();

function shapeOf(schema: Schema): Shape {
  let shape = shapes.get(schema);
  if (!shape) {
    const parts: Schema[] = [];
    const collect = (s: Schema): void => {
      parts.push(s);
      asSchemas(s.allOf).forEach(collect);
    };
    collect(schema);
    const choices = parts
      .flatMap((p) => [asSchemas(p.oneOf), asSchemas(p.anyOf)])
      .filter((group) => group.length > 0);
    shape = { parts, choices };
    shapes.set(schema, shape);
  }
  return shape;
}

/**
 * What applies to one value: the static parts plus, recursively, the branches that fit it (also
 * what legal variation reads to know which `required` and bounds hold for a value).
 */
export function applicable(schemas: readonly Schema[], value: unknown): Schema[] {
  // The common case (one schema, no combinator) allocates nothing.
  if (schemas.length === 1) {
    const shape = shapeOf(schemas[0]);
    if (shape.choices.length === 0) return shape.parts;
  }
  const out: Schema[] = [];
  const visit = (schema: Schema): void => {
    const shape = shapeOf(schema);
    out.push(...shape.parts);
    for (const branches of shape.choices) {
      const fitting = branches.filter((b) => fits(b, value));
      (fitting.length > 0 ? fitting : branches).forEach(visit);
    }
  };
  schemas.forEach(visit);
  return out;
}

/** What a set of applicable schemas declares for an object or array. */
interface Fields {
  /** Sub-schemas per declared property name (every declaration, from every part). */
  properties: Map<string, Schema[]>;
  /** `additionalProperties` schemas: undeclared names are walked against them. */
  open: Schema[];
  /** `additionalProperties: true`: any name is declared. */
  freeForm: boolean;
  /** False for a schema that says nothing about fields (e.g. a free-form `received: {}`). */
  describesFields: boolean;
  items: Schema[];
}

/** Keyed by the parts array: a shape's own parts are stable, so the common case is computed once. */
const fieldsCache = new WeakMap<Schema[], Fields>();

function fieldsOf(parts: Schema[]): Fields {
  let fields = fieldsCache.get(parts);
  if (!fields) {
    const properties = new Map<string, Schema[]>();
    for (const part of parts) {
      if (!isObject(part.properties)) continue;
      for (const [name, sub] of Object.entries(part.properties))
        if (isObject(sub)) properties.set(name, [...(properties.get(name) ?? []), sub]);
    }
    fields = {
      properties,
      open: parts.map((p) => p.additionalProperties).filter(isObject),
      freeForm: parts.some((p) => p.additionalProperties === true),
      describesFields: parts.some((p) => isObject(p.properties) || 'additionalProperties' in p),
      items: parts.map((p) => p.items).filter(isObject),
    };
    fieldsCache.set(parts, fields);
  }
  return fields;
}

/** What a walk of a body beside its schema is told about each object it reaches. */
interface ObjectVisit {
  object: Record<string, unknown>;
  /** The schemas the object is walked against; those that apply to it (fitting branches included), and what they declare. */
  schemas: readonly Schema[];
  parts: Schema[];
  fields: Fields;
  /** Walks the field `key` further, against `subs`. */
  into(key: string, subs: Schema[]): void;
  /** The pointer of the field `key` of this object. */
  pointer(key: string): string;
}

/**
 * Walks `value` beside `schema`: arrays item by item against their `items`, objects through
 * `visitObject` (which says which fields to walk further), and, when given, every value with the
 * schemas that apply to it (`visitValue`, scalars included). Pointers are prefixed by `at`; the
 * path is a stack of segments, a pointer string is built only for what is reported.
 */
function walkBeside(
  schema: Schema | undefined,
  value: unknown,
  at: string,
  visitObject: (visit: ObjectVisit) => void,
  visitValue?: (parts: Schema[], here: () => string) => void,
): void {
  const path: string[] = [];
  const segment = (name: string) => `/${escapeSegment(capName(name))}`;
  const here = () => `${at}${path.map(segment).join('')}`;
  const pointer = (key: string) => `${here()}${segment(key)}`;
  const walk = (schemas: readonly Schema[], current: unknown): void => {
    if (schemas.length === 0) return;
    const composite = current !== null && typeof current === 'object';
    if (!composite && !visitValue) return;
    const parts = applicable(schemas, current);
    visitValue?.(parts, here);
    if (!composite) return;
    const fields = fieldsOf(parts);
    if (Array.isArray(current)) {
      if (fields.items.length === 0) return;
      current.forEach((item, i) => {
        path.push(String(i));
        walk(fields.items, item);
        path.pop();
      });
      return;
    }
    const object = current as Record<string, unknown>;
    const into = (key: string, subs: Schema[]) => {
      path.push(key);
      walk(subs, object[key]);
      path.pop();
    };
    visitObject({ object, schemas, parts, fields, into, pointer });
  };
  if (schema) walk([schema], value);
}

/**
 * The undeclared fields in `value` under `schema`, one per pointer pattern in the order first
 * met, each pointer prefixed by `at`; at most `maxPatterns` patterns, the other fields counted.
 */
export function collectUndeclared(
  schema: Schema | undefined,
  value: unknown,
  at = '',
  maxPatterns = MAX_UNDECLARED_PATTERNS,
): UndeclaredFields {
  const byPattern = new Map<string, UndeclaredField>();
  let omitted = 0;
  let cut = false;
  walkBeside(schema, value, at, ({ object, fields, into, pointer }) => {
    if (!fields.describesFields) return;
    for (const key of Object.keys(object)) {
      const subs = fields.properties.get(key) ?? fields.open;
      if (subs.length > 0) {
        into(key, subs);
        continue;
      }
      if (fields.freeForm) continue;
      if (key.length > MAX_NAME_LENGTH) cut = true;
      const where = pointer(key);
      const pattern = pointerPattern(where);
      const seen = byPattern.get(pattern);
      if (seen) seen.count++;
      else if (byPattern.size >= maxPatterns) omitted++;
      else
        byPattern.set(pattern, {
          pointer: where,
          pattern,
          count: 1,
          sample: sampleOf(object[key]),
        });
    }
  });
  return { fields: [...byPattern.values()], omitted, cut };
}

/** `collectUndeclared`'s fields alone (the bound's count of the rest dropped). */
export function findUndeclared(
  schema: Schema | undefined,
  value: unknown,
  at = '',
): UndeclaredField[] {
  return collectUndeclared(schema, value, at).fields;
}

/**
 * Every field the document declares but `value` leaves out, where the document does not require it:
 * presence neither the source nor the reference states (a warning in the suite, never a failure).
 * Required fields are the validators' job; alternative spellings (`x-alternative-of`) and fields
 * present only where they apply (`x-presence: sometimes`) are not expected, nor the fields another
 * form (`oneOf`/`anyOf` branch) requires. Pointers name the absent field.
 */
export function findAbsent(schema: Schema | undefined, value: unknown, at = ''): string[] {
  const found: string[] = [];
  walkBeside(schema, value, at, ({ object, schemas, parts, fields, into, pointer }) => {
    const required = new Set(parts.flatMap(requiredOf));
    // A field some `oneOf`/`anyOf` branch requires belongs to that form only: expected when a fitting branch requires it.
    const formOnly = new Set(schemas.flatMap((s) => shapeOf(s).choices.flat().flatMap(requiredOf)));
    for (const [name, subs] of fields.properties) {
      if (name in object) into(name, subs);
      else if (
        !required.has(name) &&
        !formOnly.has(name) &&
        !subs.some((sub) => 'x-alternative-of' in sub || 'x-presence' in sub)
      )
        found.push(pointer(name));
    }
  });
  return found;
}

/** A place where a response uses the form of a conflict the mock does not serve. */
export interface FormSeen {
  pointer: string;
  /** The form, as the document names it (`x-form`, or the spelling an `x-alternative-of` field replaces). */
  form: string;
}

/**
 * Where the source and the reference disagree the document accepts both forms and marks the one
 * the mock does not serve (`x-form` on a branch, `x-alternative-of` on a field). Lists each place
 * `value` uses such a form, so the suite can say which one the target sends.
 */
export function findForms(schema: Schema | undefined, value: unknown, at = ''): FormSeen[] {
  const found: FormSeen[] = [];
  walkBeside(
    schema,
    value,
    at,
    ({ object, fields, into, pointer }) => {
      for (const [name, subs] of fields.properties) {
        if (!(name in object)) continue;
        const alternative = subs
          .map((sub) => sub['x-alternative-of'])
          .find((a): a is string => typeof a === 'string');
        if (alternative !== undefined)
          found.push({ pointer: pointer(name), form: `\`${name}\` instead of \`${alternative}\`` });
        into(name, subs);
      }
    },
    // The branches that fit the value, scalars included: a marked one is the form it uses.
    (parts, here) => {
      for (const part of parts)
        if (typeof part['x-form'] === 'string')
          found.push({ pointer: here(), form: part['x-form'] });
    },
  );
  return found;
}

/** The names a schema object lists as `required`. */
export function requiredOf(schema: Schema): string[] {
  return Array.isArray(schema.required) ? schema.required.map(String) : [];
}

/** Which undeclared-field pointers are accepted. */
export type Allowlist = (pointer: string) => boolean;

function compilePattern(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .map((segment) =>
      segment === '**' ? '.*' : segment === '*' ? '[^/]+' : literalPattern(segment),
    )
    .join('/');
  return new RegExp(`^${body}$`);
}

/** An allowlist from pointer patterns: `*` matches one segment, `**` any number of segments. */
export function allowlistOf(patterns: readonly string[]): Allowlist {
  const compiled = patterns.map(compilePattern);
  return (pointer) => compiled.some((re) => re.test(pointer));
}
