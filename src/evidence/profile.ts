/**
 * @module evidence/profile
 * The observed profile (`profile.json`): what a target was seen to do, per operation, as counts.
 * One format for the contract suite, the proxy and recordings, so their profiles merge.
 *
 * Deterministic: the same observations give the same bytes whatever order they came in (every
 * field is a count, a union, a min/max or a smallest-first choice, so merging is commutative and
 * associative), and `serializeProfile` writes keys sorted by code unit. Bounded: every open-ended
 * set has a cap in `bounds` (written into the file); what exceeds a cap is dropped by the same
 * smallest-first rule, or (value sets) marks the location `open` instead of growing.
 * Never holds a key or a personal-looking value of an undeclared field: observe.ts decides what
 * values may be kept; this module only stores and merges them, and `profileText` redacts every
 * name and value once more before a writer writes it.
 *
 * Hostile-proof: every name that comes from a server (a header, a field, a media type, a value)
 * is a key of a null-prototype record and is read with `Object.hasOwn`, never looked up through a
 * prototype (`constructor`, `toString`, `__proto__` are names like any other); every number is
 * finite (a body's `1e400` is counted as `outOfRange`, not stored); and `profileText` checks what
 * it is about to write with the reader (`asProfile`) first, so no writer writes a profile the next
 * night would refuse.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { MAX_NAME_LENGTH } from '../contract/names.js';
import { readBoundedText } from '../files/read-bounded.js';
import { redactValue } from '../redaction.js';

export const PROFILE_FORMAT = 'web-data-profile/1';

/** The caps; a profile carries the ones it was built with. Profiles merge only when theirs agree. */
export interface ProfileBounds {
  /** Distinct strings kept per location; one more and the location is `open` (not enum-like). */
  values: number;
  /** Longest string kept as a value; a longer one marks the location `open`. */
  valueChars: number;
  /** Locations kept per operation and status (the smallest pointers first). */
  locations: number;
  /** Distinct keys kept in any other counted set (headers, shapes, page sizes, order candidates). */
  keys: number;
}

export const DEFAULT_BOUNDS: ProfileBounds = {
  values: 20,
  valueChars: 64,
  locations: 2000,
  keys: 64,
};

export type JsonType = 'array' | 'boolean' | 'integer' | 'null' | 'number' | 'object' | 'string';
export type StringFormat = 'date' | 'date-time' | 'uri' | 'uuid' | 'other';
/** How many times each key was seen. */
export type Counts = Record<string, number>;

export interface Range {
  min: number;
  max: number;
}

/** One JSON location (`/data/*\/wwwUpdateDate`, array indices as `*`) of the bodies of one status. */
export interface LocationProfile {
  /** Times a value stood here: for a field of a record, how many records carried it. */
  count: number;
  types: Counts;
  /** Formats of the strings (date, date-time, uri, uuid, other). */
  formats?: Counts;
  /** Distinct strings and their counts, while the set stays within the bounds and may be kept. */
  values?: Counts;
  /** More distinct strings than `bounds.values`, or some too long, personal or secret to keep: `values` omitted. */
  open?: true;
  /** Smallest and largest number. */
  numbers?: Range;
  /** Shortest and longest array. */
  lengths?: Range;
  /** Numbers beyond a double's range (`1e400`, read as infinity): counted here, kept out of `numbers`. */
  outOfRange?: number;
}

/** The JSON bodies of one status of one operation (an error status: its shape only, no `values` or `numbers`). */
export interface BodyProfile {
  /** Responses with a JSON body. */
  count: number;
  /** Keyed by pointer pattern; `''` is the body itself. */
  locations: Record<string, LocationProfile>;
  /** Locations left out by `bounds.locations`. */
  dropped?: number;
}

/** What the pages of a list operation (a body with a `data` array) showed. */
export interface ListProfile {
  /** Pages asked without `limit` that were full (more followed): records per page -> pages. */
  defaultSizes: Counts;
  /** `pagination.limit` as echoed on pages asked without `limit`. */
  defaultEchoedLimit: Counts;
  /** Largest `limit` asked, and the largest answered with exactly that many records. */
  largestLimitAsked?: number;
  largestLimitHonoured?: number;
  /**
   * Pages with an `offset` where counting pages and counting items predict different answers
   * (`has_more`, or an empty page): how many fit each reading.
   */
  offset: { informative: number; page: number; item: number };
  /**
   * Pages asked without an order, of at least three records: per candidate (`<field> asc|desc`)
   * the pages whose records it fits, and of those the pages where the field was not constant.
   */
  defaultOrder: { pages: number; fits: Counts; strict: Counts };
}

export interface OperationProfile {
  /** Responses observed. */
  count: number;
  statuses: Counts;
  /** Media types, lower case, without parameters (`''` when none). */
  contentTypes: Counts;
  /** Header names (lower case) -> responses carrying them. */
  headers: Counts;
  /** The quota header's values (`x-ratelimit-limit`); a countdown (`-remaining`, `Retry-After`) depends on request order, so only its presence is counted in `headers`. */
  headerValues: Record<string, Range>;
  /** JSON bodies per status. */
  bodies: Record<string, BodyProfile>;
  /** Error statuses: top-level field names of the body (comma-joined, sorted) -> responses. */
  errorShapes: Record<string, Counts>;
  /** Per status, the plainest request that got it (`GET /packages?limit=1`; no key, no personal values). */
  examples: Record<string, string>;
  list?: ListProfile;
}

export interface Profile {
  format: typeof PROFILE_FORMAT;
  bounds: ProfileBounds;
  /** Responses observed. */
  count: number;
  operations: Record<string, OperationProfile>;
  /** Answers left out whole: a body nested deeper than MAX_PROFILE_DEPTH (the profile is still written). */
  unprofiled?: number;
  /** Names from a server (fields, headers, media types) longer than MAX_NAME_CHARS, kept cut short. */
  namesCut?: number;
}

/**
 * Longest name from a server kept whole: a longer one keeps this many characters and `…` (the one
 * bound every output puts on a server's names; a profile's cut form carries no length, so a name
 * cut tonight reads the same as the same name cut last night).
 */
export const MAX_NAME_CHARS = MAX_NAME_LENGTH;
/** Deepest JSON body folded in; a deeper answer is left out (`unprofiled`), not the profile. */
export const MAX_PROFILE_DEPTH = 64;

/** A record keyed by names from a server: no prototype, so no name reads an inherited property. */
export function dataRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** The entry of `record` under `name` (own properties only), made when missing. */
export function entryOf<T>(record: Record<string, T>, name: string, make: () => T): T {
  if (Object.hasOwn(record, name)) return record[name];
  const made = make();
  setEntry(record, name, made);
  return made;
}

/** Sets an own entry, even one named `__proto__` in a record that has a prototype. */
export function setEntry<T>(record: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(record, name, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** Adds `by` to a count. */
export function bump(counts: Counts, name: string, by = 1): void {
  setEntry(counts, name, (Object.hasOwn(counts, name) ? counts[name] : 0) + by);
}

export function emptyProfile(bounds: ProfileBounds = DEFAULT_BOUNDS): Profile {
  return { format: PROFILE_FORMAT, bounds: { ...bounds }, count: 0, operations: dataRecord() };
}

// ---------------------------------------------------------------------------------------------
// Validation: a profile handed to us (a baseline, a file to merge) is checked before it is used.

const COUNTS = { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } };
const RANGE = {
  type: 'object',
  required: ['min', 'max'],
  additionalProperties: false,
  properties: { min: { type: 'number' }, max: { type: 'number' } },
};
const COUNT = { type: 'integer', minimum: 0 };
const LOCATION = {
  type: 'object',
  required: ['count', 'types'],
  additionalProperties: false,
  properties: {
    count: COUNT,
    types: COUNTS,
    formats: COUNTS,
    values: COUNTS,
    open: { const: true },
    numbers: RANGE,
    lengths: RANGE,
    outOfRange: COUNT,
  },
};
const LIST = {
  type: 'object',
  required: ['defaultSizes', 'defaultEchoedLimit', 'offset', 'defaultOrder'],
  additionalProperties: false,
  properties: {
    defaultSizes: COUNTS,
    defaultEchoedLimit: COUNTS,
    largestLimitAsked: COUNT,
    largestLimitHonoured: COUNT,
    offset: {
      type: 'object',
      required: ['informative', 'page', 'item'],
      additionalProperties: false,
      properties: { informative: COUNT, page: COUNT, item: COUNT },
    },
    defaultOrder: {
      type: 'object',
      required: ['pages', 'fits', 'strict'],
      additionalProperties: false,
      properties: { pages: COUNT, fits: COUNTS, strict: COUNTS },
    },
  },
};
const OPERATION = {
  type: 'object',
  required: [
    'count',
    'statuses',
    'contentTypes',
    'headers',
    'headerValues',
    'bodies',
    'errorShapes',
    'examples',
  ],
  additionalProperties: false,
  properties: {
    count: COUNT,
    statuses: COUNTS,
    contentTypes: COUNTS,
    headers: COUNTS,
    headerValues: { type: 'object', additionalProperties: RANGE },
    bodies: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['count', 'locations'],
        additionalProperties: false,
        properties: {
          count: COUNT,
          locations: { type: 'object', additionalProperties: LOCATION },
          dropped: COUNT,
        },
      },
    },
    errorShapes: { type: 'object', additionalProperties: COUNTS },
    examples: { type: 'object', additionalProperties: { type: 'string' } },
    list: LIST,
  },
};

/** The JSON Schema of `profile.json`. */
export const PROFILE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  required: ['format', 'bounds', 'count', 'operations'],
  additionalProperties: false,
  properties: {
    format: { const: PROFILE_FORMAT },
    bounds: {
      type: 'object',
      required: ['values', 'valueChars', 'locations', 'keys'],
      additionalProperties: false,
      properties: {
        values: { type: 'integer', minimum: 1 },
        valueChars: { type: 'integer', minimum: 1 },
        locations: { type: 'integer', minimum: 1 },
        keys: { type: 'integer', minimum: 1 },
      },
    },
    count: COUNT,
    operations: { type: 'object', additionalProperties: OPERATION },
    unprofiled: COUNT,
    namesCut: COUNT,
  },
} as const;

const validate = new Ajv2020({ allErrors: false, strict: true }).compile<Profile>(PROFILE_SCHEMA);

/** A copy of parsed JSON whose objects have no prototype (see `dataRecord`). */
function withoutPrototypes(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(withoutPrototypes);
  const out = dataRecord<unknown>();
  for (const [name, child] of Object.entries(value)) setEntry(out, name, withoutPrototypes(child));
  return out;
}

/**
 * Checks a parsed value is a profile and returns it with null-prototype records (safe to merge
 * into); the error names `where` and the first problem.
 */
export function asProfile(value: unknown, where: string): Profile {
  if (validate(value)) return withoutPrototypes(value) as Profile;
  const e = validate.errors?.[0];
  throw new Error(
    `${where}: not a profile (${PROFILE_FORMAT}): ${e ? `${e.instancePath || '(top)'} ${e.message}` : 'invalid'}`,
  );
}

/** Reads and checks a profile file; every problem is one error naming the file. */
export function readProfile(path: string): Profile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readBoundedText(path));
  } catch (error) {
    throw new Error(`${path}: cannot read a profile (${(error as Error).message})`);
  }
  return asProfile(parsed, path);
}

/** Code-unit order, the same on every machine (no locale). */
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON with every object's keys sorted by code unit, two-space indented, ending in a newline. */
export function serializeProfile(profile: Profile): string {
  const write = (value: unknown, indent: string): string => {
    if (value === null || typeof value !== 'object') return JSON.stringify(value);
    const inner = `${indent}  `;
    if (Array.isArray(value))
      return value.length === 0
        ? '[]'
        : `[\n${value.map((v) => inner + write(v, inner)).join(',\n')}\n${indent}]`;
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort(byCodeUnit);
    if (keys.length === 0) return '{}';
    return `{\n${keys
      .map(
        (k) =>
          `${inner}${JSON.stringify(k)}: ${write((value as Record<string, unknown>)[k], inner)}`,
      )
      .join(',\n')}\n${indent}}`;
  };
  return `${write(profile, '')}\n`;
}

/** Every word of the format itself (property names, `format`, JSON types and string formats). */
function formatWords(): Set<string> {
  const words = new Set<string>([PROFILE_FORMAT]);
  const JSON_TYPES: JsonType[] = [
    'array',
    'boolean',
    'integer',
    'null',
    'number',
    'object',
    'string',
  ];
  const FORMATS: StringFormat[] = ['date', 'date-time', 'uri', 'uuid', 'other'];
  for (const word of [...JSON_TYPES, ...FORMATS]) words.add(word);
  const visit = (schema: unknown): void => {
    if (schema === null || typeof schema !== 'object') return;
    const { properties } = schema as { properties?: Record<string, unknown> };
    if (properties) for (const name of Object.keys(properties)) words.add(name);
    for (const child of Object.values(schema)) visit(child);
  };
  visit(PROFILE_SCHEMA);
  return words;
}
const PROFILE_WORDS: ReadonlySet<string> = formatWords();

/**
 * The text a writer writes: every name and value from a server with the secrets redacted (the
 * format's own words kept), serialised, and read back with the reader first. Throws (naming the
 * problem) rather than return a profile the next night would refuse.
 */
export function profileText(profile: Profile, secrets: readonly string[] = []): string {
  const text = serializeProfile(redactValue(profile, secrets, PROFILE_WORDS));
  asProfile(JSON.parse(text), 'the profile about to be written');
  return text;
}

// ---------------------------------------------------------------------------------------------
// Merging. `mergeInto` changes its target (observe.ts folds each response in with it);
// `merge` leaves both inputs alone.

/** Keeps the `max` smallest keys of a record (code-unit order); returns how many were dropped. */
export function capKeys<T>(record: Record<string, T>, max: number): number {
  const keys = Object.keys(record);
  if (keys.length <= max) return 0;
  const drop = keys.sort(byCodeUnit).slice(max);
  for (const k of drop) delete record[k];
  return drop.length;
}

function addCounts(into: Counts, from: Counts, cap: number): void {
  for (const [k, n] of Object.entries(from)) bump(into, k, n);
  capKeys(into, cap);
}

function mergeRange(a: Range | undefined, b: Range | undefined): Range | undefined {
  if (!a) return b && { ...b };
  if (!b) return a;
  return { min: Math.min(a.min, b.min), max: Math.max(a.max, b.max) };
}

function maxOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** The smaller of two strings by (length, code unit): the plainer example request. */
function plainer(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a.length !== b.length) return a.length < b.length ? a : b;
  return byCodeUnit(a, b) <= 0 ? a : b;
}

function mergeLocation(into: LocationProfile, from: LocationProfile, bounds: ProfileBounds): void {
  into.count += from.count;
  addCounts(into.types, from.types, bounds.keys);
  if (from.formats) addCounts((into.formats ??= dataRecord()), from.formats, bounds.keys);
  into.numbers = mergeRange(into.numbers, from.numbers);
  into.lengths = mergeRange(into.lengths, from.lengths);
  const outOfRange = (into.outOfRange ?? 0) + (from.outOfRange ?? 0);
  if (outOfRange > 0) into.outOfRange = outOfRange;
  if (into.open || from.open) {
    into.open = true;
    delete into.values;
  } else if (from.values) {
    const values = (into.values ??= dataRecord());
    for (const [v, n] of Object.entries(from.values)) bump(values, v, n);
    if (Object.keys(values).length > bounds.values) {
      into.open = true;
      delete into.values;
    }
  }
  for (const k of ['numbers', 'lengths', 'formats', 'values'] as const)
    if (into[k] === undefined) delete into[k];
}

function cloneLocation(from: LocationProfile): LocationProfile {
  return withoutPrototypes(from) as LocationProfile;
}

function mergeBody(into: BodyProfile, from: BodyProfile, bounds: ProfileBounds): void {
  into.count += from.count;
  for (const [pointer, loc] of Object.entries(from.locations)) {
    if (Object.hasOwn(into.locations, pointer)) mergeLocation(into.locations[pointer], loc, bounds);
    else setEntry(into.locations, pointer, cloneLocation(loc));
  }
  const dropped =
    (into.dropped ?? 0) + (from.dropped ?? 0) + capKeys(into.locations, bounds.locations);
  if (dropped > 0) into.dropped = dropped;
}

export function emptyList(): ListProfile {
  return {
    defaultSizes: dataRecord(),
    defaultEchoedLimit: dataRecord(),
    offset: { informative: 0, page: 0, item: 0 },
    defaultOrder: { pages: 0, fits: dataRecord(), strict: dataRecord() },
  };
}

function mergeList(into: ListProfile, from: ListProfile, bounds: ProfileBounds): void {
  addCounts(into.defaultSizes, from.defaultSizes, bounds.keys);
  addCounts(into.defaultEchoedLimit, from.defaultEchoedLimit, bounds.keys);
  const asked = maxOf(into.largestLimitAsked, from.largestLimitAsked);
  const honoured = maxOf(into.largestLimitHonoured, from.largestLimitHonoured);
  if (asked !== undefined) into.largestLimitAsked = asked;
  if (honoured !== undefined) into.largestLimitHonoured = honoured;
  into.offset.informative += from.offset.informative;
  into.offset.page += from.offset.page;
  into.offset.item += from.offset.item;
  into.defaultOrder.pages += from.defaultOrder.pages;
  addCounts(into.defaultOrder.fits, from.defaultOrder.fits, bounds.keys);
  addCounts(into.defaultOrder.strict, from.defaultOrder.strict, bounds.keys);
}

export function emptyOperation(): OperationProfile {
  return {
    count: 0,
    statuses: dataRecord(),
    contentTypes: dataRecord(),
    headers: dataRecord(),
    headerValues: dataRecord(),
    bodies: dataRecord(),
    errorShapes: dataRecord(),
    examples: dataRecord(),
  };
}

function mergeOperation(
  into: OperationProfile,
  from: OperationProfile,
  bounds: ProfileBounds,
): void {
  into.count += from.count;
  addCounts(into.statuses, from.statuses, bounds.keys);
  addCounts(into.contentTypes, from.contentTypes, bounds.keys);
  addCounts(into.headers, from.headers, bounds.keys);
  for (const [name, range] of Object.entries(from.headerValues))
    setEntry(into.headerValues, name, mergeRange(ownEntry(into.headerValues, name), range)!);
  capKeys(into.headerValues, bounds.keys);
  for (const [status, body] of Object.entries(from.bodies)) {
    const have = entryOf(into.bodies, status, (): BodyProfile => ({
      count: 0,
      locations: dataRecord(),
    }));
    mergeBody(have, body, bounds);
  }
  capKeys(into.bodies, bounds.keys);
  for (const [status, shapes] of Object.entries(from.errorShapes))
    addCounts(entryOf(into.errorShapes, status, dataRecord<number>), shapes, bounds.keys);
  capKeys(into.errorShapes, bounds.keys);
  for (const [status, example] of Object.entries(from.examples))
    setEntry(into.examples, status, plainer(ownEntry(into.examples, status), example)!);
  capKeys(into.examples, bounds.keys);
  if (from.list) mergeList((into.list ??= emptyList()), from.list, bounds);
}

function ownEntry<T>(record: Record<string, T>, name: string): T | undefined {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

function sameBounds(a: ProfileBounds, b: ProfileBounds): boolean {
  return (Object.keys(DEFAULT_BOUNDS) as (keyof ProfileBounds)[]).every((k) => a[k] === b[k]);
}

/**
 * Adds `from` to `into` (changed in place) and returns it. Profiles built with different bounds
 * are refused: cutting one down to the other's would depend on the order they came in.
 */
export function mergeInto(into: Profile, from: Profile): Profile {
  if (!sameBounds(into.bounds, from.bounds))
    throw new Error(
      `profiles built with different bounds cannot be merged (${JSON.stringify(into.bounds)} and ${JSON.stringify(from.bounds)})`,
    );
  into.count += from.count;
  for (const [id, op] of Object.entries(from.operations))
    mergeOperation(entryOf(into.operations, id, emptyOperation), op, into.bounds);
  for (const k of ['unprofiled', 'namesCut'] as const) {
    const sum = (into[k] ?? 0) + (from[k] ?? 0);
    if (sum > 0) into[k] = sum;
  }
  return into;
}

/** The profile of everything `a` and `b` saw together; neither input is changed. */
export function merge(a: Profile, b: Profile): Profile {
  return mergeInto(withoutPrototypes(a) as Profile, b);
}
