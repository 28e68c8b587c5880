/**
 * @module vary/edits
 * Legal variation of one JSON answer: walks the body beside its (dereferenced) response schema and,
 * at each place the schema leaves a choice, makes a seeded pick among the edits it allows:
 * an optional field left out, a nullable one null, an array empty, at its `minItems` or longer, a
 * free string at its length bounds or in non-ASCII text, a lone figure at its `minimum`/`maximum`,
 * the other form of a source/reference conflict (a field under its `x-alternative-of` name, a
 * figure as text where both are accepted), an undeclared field where the schema admits any. What applies to a value is what the validators
 * apply: the `allOf` closure and the `oneOf`/`anyOf` branches that fit it (`applicable`), so a
 * field a fitting branch requires stays. Never touched: required fields, fields of a kept name
 * (`kept.ts`) and whatever holds one, an object a search criterion is matched against, the text of
 * links (a rewritten link would not resolve), and strings or numbers under `enum`, `const`,
 * `format`, `pattern` or `multipleOf`.
 */
import { applicable, fits, requiredOf, type Schema } from '../../contract/index.js';
import type { KeptFields } from './kept.js';

/** What was done at a pointer. */
export type EditKind =
  | 'absent'
  | 'null'
  | 'empty'
  | 'min-items'
  | 'long'
  | 'min-length'
  | 'max-length'
  | 'non-ascii'
  | 'minimum'
  | 'maximum'
  | 'form'
  | 'undeclared';

export interface Edit {
  kind: EditKind;
  /** JSON pointer of the varied value in the varied body. */
  pointer: string;
}

export interface VaryRules {
  /** What the answer's meaning rests on (`keptFields`). */
  kept: KeptFields;
  /** Floats in [0, 1), seeded per request. */
  random: () => number;
}

/** The share of places that get an edit; the rest keep the dataset's value. */
const EDIT_CHANCE = 0.5;
/** A lengthened array repeats its items up to this many (or its `maxItems`). */
const LONG_ITEMS = 25;
/** The name of the undeclared field added where the schema admits any. */
export const UNDECLARED_FIELD = 'mockUndeclared';
/** Non-ASCII texts a free string may become: accents, CJK, Greek, right-to-left, combining marks, emoji. */
const NON_ASCII = [
  'Größe über 25 °C',
  '日本語の説明テキスト',
  'Ελληνικό κείμενο',
  'שלום עולם',
  'Ünïcödé — “quoted” ✓',
  'e\u0301te\u0301 combining',
  'plug 🔌 bolt ⚡',
];
/** What an undeclared field may hold: a tolerant reader ignores it whatever its type. */
const UNDECLARED_VALUES: readonly unknown[] = [
  'Ünïcödé undeclared',
  42,
  true,
  null,
  { nested: { list: [1, 'two'] } },
  [],
];

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function escapeSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A relative path or an absolute http(s) URL: followed by clients, so its text is never rewritten. */
function isLink(value: string): boolean {
  return value.startsWith('/') || /^https?:\/\//i.test(value);
}

/** Whether a value holds a field of a kept name, at any depth. */
function holdsKept(value: unknown, kept: ReadonlySet<string>): boolean {
  if (Array.isArray(value)) return value.some((item) => holdsKept(item, kept));
  if (!isObject(value)) return false;
  for (const key in value) if (kept.has(key) || holdsKept(value[key], kept)) return true;
  return false;
}

/** The tightest of a numeric keyword over the parts that state it. */
function tightest(
  parts: readonly Schema[],
  keyword: string,
  pick: 'max' | 'min',
): number | undefined {
  const values = parts.map((p) => p[keyword]).filter((v): v is number => typeof v === 'number');
  if (values.length === 0) return undefined;
  return pick === 'max' ? Math.max(...values) : Math.min(...values);
}

function states(parts: readonly Schema[], ...keywords: string[]): boolean {
  return parts.some((p) => keywords.some((k) => k in p));
}

/** `count` code points of `text`, repeated as needed. */
function codePoints(text: string, count: number): string {
  const points = Array.from(text);
  let out = '';
  for (let i = 0; i < count; i++) out += points[i % points.length];
  return out;
}

class Walk {
  readonly edits: Edit[] = [];
  readonly #rules: VaryRules;

  constructor(rules: VaryRules) {
    this.#rules = rules;
  }

  pick<T>(options: readonly T[]): T {
    return options[Math.floor(this.#rules.random() * options.length)];
  }

  chance(): boolean {
    return this.#rules.random() < EDIT_CHANCE;
  }

  get kept(): ReadonlySet<string> {
    return this.#rules.kept.names;
  }

  /** Whether an object carries a criterion name: it is matched against, so left whole. */
  isMatched(object: Record<string, unknown>): boolean {
    for (const key in object) if (this.#rules.kept.criteria.has(key)) return true;
    return false;
  }

  note(kind: EditKind, pointer: string): void {
    this.edits.push({ kind, pointer });
  }
}

/** One edit a place allows: its kind and the value it puts there (under another name, for `rename`). */
interface EditOption {
  kind: EditKind;
  make: () => unknown;
  rename?: string;
}

/** Leaving an optional field out (the value is never used). */
const LEAVE_OUT: EditOption = { kind: 'absent', make: () => undefined };

/** The edits a declared value allows in place (a replacement value), besides leaving it out. */
function replacements(subs: readonly Schema[], value: unknown, lone: boolean): EditOption[] {
  const parts = applicable(subs, value);
  const out: EditOption[] = [];
  if (value !== null && subs.every((s) => fits(s, null)))
    out.push({ kind: 'null', make: () => null });
  if (Array.isArray(value) && value.length > 0) {
    const minItems = tightest(parts, 'minItems', 'max') ?? 0;
    if (minItems === 0) out.push({ kind: 'empty', make: () => [] });
    else if (minItems < value.length)
      out.push({
        kind: 'min-items',
        make: (): unknown[] => (value as unknown[]).slice(0, minItems),
      });
    const maxItems = Math.min(tightest(parts, 'maxItems', 'min') ?? LONG_ITEMS, LONG_ITEMS);
    if (!parts.some((p) => p.uniqueItems === true) && maxItems > value.length)
      out.push({
        kind: 'long',
        make: () =>
          Array.from(
            { length: maxItems },
            (_, i) => JSON.parse(JSON.stringify(value[i % value.length])) as unknown,
          ),
      });
  }
  if (
    typeof value === 'string' &&
    !isLink(value) &&
    !states(parts, 'enum', 'const', 'format', 'pattern', 'contentMediaType', 'contentEncoding')
  ) {
    const minLength = tightest(parts, 'minLength', 'max') ?? 0;
    const maxLength = tightest(parts, 'maxLength', 'min');
    const sample = NON_ASCII[value.length % NON_ASCII.length];
    out.push({ kind: 'min-length', make: () => codePoints(sample, minLength) });
    if (maxLength !== undefined)
      out.push({ kind: 'max-length', make: () => codePoints(sample, maxLength) });
    const text = Array.from(`${value} ${sample}`);
    if (maxLength === undefined || maxLength >= minLength)
      out.push({
        kind: 'non-ascii',
        make: () => text.slice(0, maxLength ?? text.length).join(''),
      });
  }
  // The other form of a source/reference conflict: a figure as its text, where both are accepted.
  if (
    typeof value === 'number' &&
    !states(parts, 'format', 'pattern') &&
    subs.every((sub) => fits(sub, String(value)))
  )
    out.push({ kind: 'form', make: () => String(value) });
  // A figure beside other figures may be tied to them by a sum, an order or a formatted text the
  // document states only in prose (DECISIONS.md 96): only a lone one moves to its bounds.
  if (typeof value === 'number' && lone && !states(parts, 'enum', 'const', 'multipleOf')) {
    if (!states(parts, 'exclusiveMinimum')) {
      const minimum = tightest(parts, 'minimum', 'max');
      if (minimum !== undefined && minimum !== value)
        out.push({ kind: 'minimum', make: () => minimum });
    }
    if (!states(parts, 'exclusiveMaximum')) {
      const maximum = tightest(parts, 'maximum', 'min');
      if (maximum !== undefined && maximum !== value)
        out.push({ kind: 'maximum', make: () => maximum });
    }
  }
  return out;
}

/** What a set of applicable schemas says about an object or array, worked out once per set. */
interface Shape {
  required: ReadonlySet<string>;
  /** Declared sub-schemas per property name, from every part that declares it. */
  declared: ReadonlyMap<string, Schema[]>;
  /** `additionalProperties` schemas: a map's values. */
  mapValues: Schema[];
  /** Whether something closes or constrains the object's names (no undeclared field then). */
  closed: boolean;
  items: Schema[];
  /** Field -> the declared field that spells it the other way (`x-alternative-of`), for a conflict's other form. */
  alternativeOf: ReadonlyMap<string, string>;
}

/** Keyed by the parts array: `applicable` hands out the same array for a schema without branches. */
const shapes = new WeakMap<readonly Schema[], Shape>();

function shapeOf(parts: readonly Schema[]): Shape {
  let shape = shapes.get(parts);
  if (!shape) {
    const declared = new Map<string, Schema[]>();
    for (const part of parts)
      if (isObject(part.properties))
        for (const [name, sub] of Object.entries(part.properties))
          if (isObject(sub)) declared.set(name, [...(declared.get(name) ?? []), sub]);
    shape = {
      required: new Set(parts.flatMap(requiredOf)),
      declared,
      mapValues: parts.map((p) => p.additionalProperties).filter(isObject),
      closed: parts.some(
        (p) =>
          ('additionalProperties' in p && p.additionalProperties !== true) ||
          ('unevaluatedProperties' in p && p.unevaluatedProperties !== true) ||
          'patternProperties' in p ||
          'propertyNames' in p ||
          'maxProperties' in p,
      ),
      items: parts.map((p) => p.items).filter(isObject),
      alternativeOf: new Map(
        [...declared].flatMap(([name, subs]) =>
          subs
            .map((sub) => sub['x-alternative-of'])
            .filter((of): of is string => typeof of === 'string')
            .map((of) => [of, name] as const),
        ),
      ),
    };
    shapes.set(parts, shape);
  }
  return shape;
}

/**
 * Varies a composite value in place, against the schemas that describe it. `inMap`: the object is
 * a value of an `additionalProperties` map (its figures are summed by the map's owner).
 */
function varyComposite(
  walk: Walk,
  schemas: readonly Schema[],
  value: unknown,
  at: string,
  inMap = false,
): void {
  if (schemas.length === 0 || value === null || typeof value !== 'object') return;
  const parts = applicable(schemas, value);
  const shape = shapeOf(parts);
  if (Array.isArray(value)) {
    value.forEach((item, i) => varyComposite(walk, shape.items, item, `${at}/${i}`));
    return;
  }
  const object = value as Record<string, unknown>;
  if (walk.isMatched(object)) return;
  let figures = 0;
  for (const key in object) if (typeof object[key] === 'number') figures++;
  for (const key of Object.keys(object)) {
    // A kept name is left whole, and so are undeclared fields and the keys of a map (they name things).
    if (walk.kept.has(key)) continue;
    const own = shape.declared.get(key);
    const subs = own ?? shape.mapValues;
    if (subs.length === 0) continue;
    const pointer = `${at}/${escapeSegment(key)}`;
    const current = object[key];
    if (own && !shape.required.has(key) && !holdsKept(current, walk.kept) && walk.chance()) {
      const edit = walk.pick([
        LEAVE_OUT,
        ...replacements(subs, current, figures === 1 && !inMap),
        ...otherSpelling(shape, object, key, walk.kept),
      ]);
      if (edit.rename !== undefined) {
        delete object[key];
        object[edit.rename] = current;
        walk.note(edit.kind, `${at}/${escapeSegment(edit.rename)}`);
        continue;
      }
      if (edit.kind === 'absent') delete object[key];
      else {
        // Nested edits first: a lengthened array repeats its items as varied.
        if (edit.kind === 'long') varyComposite(walk, subs, current, pointer);
        object[key] = edit.make();
      }
      walk.note(edit.kind, pointer);
      continue;
    }
    varyComposite(walk, subs, current, pointer, own === undefined);
  }
  if (walk.chance()) addUndeclared(walk, parts, shape, object, at);
}

/**
 * The field under the name the other side of a source/reference conflict gives it
 * (`x-alternative-of`), where that name is free, not kept, and its schema takes the value, and the
 * value is not a link.
 */
function otherSpelling(
  shape: Shape,
  object: Record<string, unknown>,
  key: string,
  kept: ReadonlySet<string>,
): EditOption[] {
  const other = shape.alternativeOf.get(key);
  // A kept name is not brought in either: the suite may read it.
  if (other === undefined || other in object || kept.has(other)) return [];
  const value = object[key];
  // A link keeps its name as well as its text: a client (and the suite) follows an `href`, not a `url`.
  if (typeof value === 'string' && isLink(value)) return [];
  const subs = shape.declared.get(other) ?? [];
  if (!subs.every((sub) => fits(sub, value))) return [];
  return [{ kind: 'form', make: () => value, rename: other }];
}

/**
 * Adds the undeclared field where nothing closes or constrains the object's names (and no `not`
 * the object must stay out of would then fit it); says whether it did.
 */
function addUndeclared(
  walk: Walk,
  parts: readonly Schema[],
  shape: Shape,
  object: Record<string, unknown>,
  at: string,
): boolean {
  if (shape.closed || shape.declared.has(UNDECLARED_FIELD) || UNDECLARED_FIELD in object)
    return false;
  object[UNDECLARED_FIELD] = structuredClone(walk.pick(UNDECLARED_VALUES));
  if (parts.some((p) => isObject(p.not) && fits(p.not, object))) {
    delete object[UNDECLARED_FIELD];
    return false;
  }
  walk.note('undeclared', `${at}/${UNDECLARED_FIELD}`);
  return true;
}

/**
 * Varies `body` (a fresh parse of the answer: changed in place) as the schema allows, and says
 * what was done. An answer the walk left as it was gets the undeclared field at its root where the
 * schema admits one: every answer differs when the facts allow anything.
 */
export function varyBody(schema: Schema, body: unknown, rules: VaryRules): Edit[] {
  const walk = new Walk(rules);
  varyComposite(walk, [schema], body, '');
  if (walk.edits.length === 0 && isObject(body)) {
    const parts = applicable([schema], body);
    addUndeclared(walk, parts, shapeOf(parts), body, '');
  }
  return walk.edits;
}
