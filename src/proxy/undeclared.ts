/**
 * @module proxy/undeclared
 * Fields a response carries that the document does not declare: walks the body beside its
 * (dereferenced) schema through `properties`, `allOf`, the `oneOf`/`anyOf` branch that fits,
 * `items` and `additionalProperties`. These are drift the schema allows, so they are warnings.
 * (The contract suite has its own walker in contract-tests/support; src must not import test code.)
 */
import type { Schema } from '../contract/index.js';

export interface UndeclaredField {
  /** JSON pointer of the undeclared field, e.g. `/data/3/newField`. */
  pointer: string;
  /** The value found there (truncated when long), for the report. */
  sample: unknown;
}

const SAMPLE_CHARS = 120;

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
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
  return text.length <= SAMPLE_CHARS ? value : `${text.slice(0, SAMPLE_CHARS)}…`;
}

function subSchemas(schema: Schema, keyword: 'allOf' | 'oneOf' | 'anyOf'): Schema[] {
  const list = schema[keyword];
  return Array.isArray(list) ? (list as Schema[]) : [];
}

function typeAllows(schema: Schema, type: string): boolean {
  const declared = schema.type;
  if (declared === undefined) return true;
  const types = Array.isArray(declared) ? declared : [declared];
  return types.includes(type) || (type === 'integer' && types.includes('number'));
}

/**
 * What a schema says regardless of the value: its `allOf` closure, and the `oneOf`/`anyOf` groups
 * inside it whose branch depends on the value. Computed once per schema object (the dereferenced
 * document shares them), so a 50-item page does not flatten the same schema 50 times.
 */
interface Shape {
  parts: Schema[];
  choices: Schema[][];
  /** Declared properties of `parts` alone, first declaration wins. */
  properties: Map<string, Schema>;
}

const shapes = new WeakMap<Schema, Shape>();

function shapeOf(schema: Schema): Shape {
  let shape = shapes.get(schema);
  if (!shape) {
    const parts = flattenAllOf(schema);
    const choices = parts.flatMap((p) => [subSchemas(p, 'oneOf'), subSchemas(p, 'anyOf')]).filter((group) => group.length > 0);
    const properties = new Map<string, Schema>();
    for (const part of parts) {
      const props = part.properties as Record<string, Schema> | undefined;
      if (props && typeof props === 'object') for (const [name, sub] of Object.entries(props)) if (!properties.has(name)) properties.set(name, sub);
    }
    shape = { parts, choices, properties };
    shapes.set(schema, shape);
  }
  return shape;
}

function flattenAllOf(schema: Schema): Schema[] {
  return [schema, ...subSchemas(schema, 'allOf').flatMap(flattenAllOf)];
}

/** The schema's parts plus, recursively, those of the `oneOf`/`anyOf` branches that fit the value. */
function flatten(schema: Schema, value: unknown): Schema[] {
  const shape = shapeOf(schema);
  if (shape.choices.length === 0) return shape.parts;
  const parts = [...shape.parts];
  for (const group of shape.choices) {
    const branch = bestBranch(group, value);
    if (branch) parts.push(...flatten(branch, value));
  }
  return parts;
}

/** Property names declared for this value: the static ones, plus those of the fitting branches. */
function declaredProperties(schema: Schema, parts: Schema[]): Map<string, Schema> {
  const shape = shapeOf(schema);
  if (shape.choices.length === 0) return shape.properties;
  const result = new Map(shape.properties);
  for (const part of parts) {
    const props = part.properties as Record<string, Schema> | undefined;
    if (props && typeof props === 'object') for (const [name, sub] of Object.entries(props)) if (!result.has(name)) result.set(name, sub);
  }
  return result;
}

/**
 * The branch that fits the value best: its type must allow the value's type; among those, the
 * one declaring most of the object's keys and missing fewest of its required ones. No ajv here:
 * this is a report of drift, the validators have already judged conformance.
 */
function bestBranch(branches: Schema[], value: unknown): Schema | undefined {
  const type = jsonTypeOf(value);
  let best: { schema: Schema; score: number } | undefined;
  for (const branch of branches) {
    const { parts, properties } = shapeOf(branch);
    if (!parts.every((p) => typeAllows(p, type))) continue;
    let score = 0;
    if (type === 'object') {
      const keys = Object.keys(value as object);
      const required = parts.flatMap((p) => (Array.isArray(p.required) ? (p.required as string[]) : []));
      score = keys.filter((k) => properties.has(k)).length - required.filter((r) => !keys.includes(r)).length;
    }
    if (!best || score > best.score) best = { schema: branch, score };
  }
  return best?.schema;
}

/** Every undeclared field in `value` under `schema`, with its pointer (prefixed by `at`). */
export function findUndeclared(schema: Schema | undefined, value: unknown, at = ''): UndeclaredField[] {
  const found: UndeclaredField[] = [];
  // The path is a stack of segments; a pointer string is built only for what is reported.
  const path: string[] = [];
  const pointer = (key: string) => `${at}${path.map((s) => `/${escapePointer(s)}`).join('')}/${escapePointer(key)}`;
  const walk = (node: Schema | undefined, current: unknown): void => {
    if (!node || current === null || typeof current !== 'object') return;
    const parts = flatten(node, current);
    if (Array.isArray(current)) {
      const items = parts.map((p) => p.items as Schema | undefined).find((s) => s && typeof s === 'object');
      if (!items) return;
      current.forEach((item, i) => {
        path.push(String(i));
        walk(items, item);
        path.pop();
      });
      return;
    }
    const declared = declaredProperties(node, parts);
    const extra = parts.map((p) => p.additionalProperties).find((s): s is Schema => !!s && typeof s === 'object');
    // A schema that names no properties (e.g. a free-form `received`) declares nothing to compare with.
    const describesFields = declared.size > 0 || extra !== undefined;
    for (const key in current) {
      const child = (current as Record<string, unknown>)[key];
      const sub = declared.get(key) ?? extra;
      if (sub) {
        path.push(key);
        walk(sub, child);
        path.pop();
      } else if (describesFields) found.push({ pointer: pointer(key), sample: sampleOf(child) });
    }
  };
  walk(schema, value);
  return found;
}
