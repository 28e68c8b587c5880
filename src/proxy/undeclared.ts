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

function sampleOf(value: unknown): unknown {
  const text = JSON.stringify(value) ?? 'undefined';
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

/** Property names this schema declares, following `allOf` (every part applies). */
function declaredProperties(schema: Schema, value: unknown): Map<string, Schema> {
  const result = new Map<string, Schema>();
  for (const part of flatten(schema, value)) {
    const props = part.properties as Record<string, Schema> | undefined;
    if (props && typeof props === 'object') for (const [name, sub] of Object.entries(props)) if (!result.has(name)) result.set(name, sub);
  }
  return result;
}

/** The schema plus every `allOf` part and the fitting `oneOf`/`anyOf` branch, recursively. */
function flatten(schema: Schema, value: unknown): Schema[] {
  const parts: Schema[] = [schema];
  for (const part of subSchemas(schema, 'allOf')) parts.push(...flatten(part, value));
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branch = bestBranch(subSchemas(schema, keyword), value);
    if (branch) parts.push(...flatten(branch, value));
  }
  return parts;
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
    const parts = flattenAllOf(branch);
    if (!parts.every((p) => typeAllows(p, type))) continue;
    let score = 0;
    if (type === 'object') {
      const keys = Object.keys(value as object);
      const declared = new Set(parts.flatMap((p) => Object.keys((p.properties as object | undefined) ?? {})));
      const required = parts.flatMap((p) => (Array.isArray(p.required) ? (p.required as string[]) : []));
      score = keys.filter((k) => declared.has(k)).length - required.filter((r) => !keys.includes(r)).length;
    }
    if (!best || score > best.score) best = { schema: branch, score };
  }
  return best?.schema;
}

function flattenAllOf(schema: Schema): Schema[] {
  return [schema, ...subSchemas(schema, 'allOf').flatMap(flattenAllOf)];
}

/** Every undeclared field in `value` under `schema`, with its pointer (prefixed by `at`). */
export function findUndeclared(schema: Schema | undefined, value: unknown, at = ''): UndeclaredField[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  const parts = flatten(schema, value);
  const found: UndeclaredField[] = [];
  if (Array.isArray(value)) {
    const items = parts.map((p) => p.items as Schema | undefined).find((s) => s && typeof s === 'object');
    value.forEach((item, i) => found.push(...findUndeclared(items, item, `${at}/${i}`)));
    return found;
  }
  const declared = declaredProperties(schema, value);
  const extra = parts.map((p) => p.additionalProperties).find((s): s is Schema => !!s && typeof s === 'object');
  // A schema that names no properties (e.g. a free-form `received`) declares nothing to compare with.
  const describesFields = declared.size > 0 || extra !== undefined;
  for (const [key, child] of Object.entries(value)) {
    const pointer = `${at}/${escapePointer(key)}`;
    const sub = declared.get(key) ?? extra;
    if (sub) found.push(...findUndeclared(sub, child, pointer));
    else if (describesFields) found.push({ pointer, sample: sampleOf(child) });
  }
  return found;
}
