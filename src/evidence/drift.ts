/**
 * @module evidence/drift
 * What the service did tonight against what it did then: the comparison of two observed profiles
 * (profile.ts), pure. A client that worked yesterday breaks on removals and on changes of type,
 * nullability, string format, default page size, default order, what `offset` counts or the
 * largest `limit` honoured: those are failures. New fields carried by (nearly) every record, new
 * values of an enum-like string and statuses never seen on an operation are warnings.
 *
 * Data changes every night, so only behaviour counts, never a sample (DECISIONS.md 107):
 * - a change the document allows is no drift: a value moving within the types it declares at that
 *   place (`[string, null]`: null one night, set the next), a new value of a declared enum;
 * - where the document is silent (an undeclared field, a free `{}`, a string without `format`), an
 *   observed regularity counts only when it was seen at least `minRecords` times then: a type or
 *   nullability change below that is a warning, and a format fails only when tonight at least
 *   `presence` of the strings left it (some values in another form is a warning); the finding says
 *   how many times it was seen;
 * - a string is enum-like only when each distinct value was seen `enumRepeat` times on average and
 *   the place `minRecords` times, and never when it names a thing or a place: identifiers and links
 *   (`...Id`, `href`, `...Url`, `uuid`, or values that were all URIs, UUIDs or dates).
 * The document's word comes in as a `DeclaredLookup` (declared.ts); without one, every place is
 * treated as silent. Thresholds (`DriftThresholds`) keep one sampled page from standing for "every
 * record".
 */
import type { DeclaredLookup, DeclaredPlace } from './declared.js';
import type { Counts, LocationProfile, OperationProfile, Profile } from './profile.js';

export interface DriftThresholds {
  /** A field counts as carried by (nearly) every record when at least this share of its parent objects carried it. */
  presence: number;
  /** ... and only when the parent objects were seen at least this many times on both nights (a sampled page is not every record). */
  minRecords: number;
  /**
   * A string location is enum-like when it was seen at least this many times per distinct value
   * (the suite asks the same records on several pages, so an identifier repeats a few times).
   */
  enumRepeat: number;
}

export const DEFAULT_THRESHOLDS: DriftThresholds = {
  presence: 0.95,
  minRecords: 10,
  enumRepeat: 10,
};

export type DriftKind =
  | 'field-removed'
  | 'type'
  | 'nullability'
  | 'format'
  | 'default-limit'
  | 'default-order'
  | 'offset'
  | 'limit-honoured'
  | 'new-field'
  | 'enum-value'
  | 'status';

export interface Drift {
  severity: 'failure' | 'warning';
  kind: DriftKind;
  operationId: string;
  /** The status whose bodies showed it. */
  status?: string;
  /** A pointer pattern (`/data/*\/wwwUpdateDate`), or `query:limit`, `query:order`, `query:offset`, `status`. */
  pointer: string;
  before: string;
  after: string;
  message: string;
  /** A request that shows it tonight (`GET /packages`, a POST with its body), else one from then; no key. */
  example?: string;
}

const SEVERITY: Record<DriftKind, Drift['severity']> = {
  'field-removed': 'failure',
  type: 'failure',
  nullability: 'failure',
  format: 'failure',
  'default-limit': 'failure',
  'default-order': 'failure',
  offset: 'failure',
  'limit-honoured': 'failure',
  'new-field': 'warning',
  'enum-value': 'warning',
  status: 'warning',
};

function parentOf(pointer: string): string | undefined {
  if (pointer === '') return undefined;
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

function objectsAt(
  locations: Record<string, LocationProfile>,
  pointer: string | undefined,
): number {
  return pointer === undefined ? 0 : (locations[pointer]?.types.object ?? 0);
}

function keysOf(record: Readonly<Record<string, unknown>> | undefined): string[] {
  return Object.keys(record ?? {}).sort();
}

function showCounts(counts: Counts | undefined): string {
  const keys = keysOf(counts);
  return keys.length === 0 ? 'none' : keys.map((k) => `${k} ${counts![k]}`).join(', ');
}

function share(n: number, of: number): string {
  return `${n} of ${of} (${Math.round((100 * n) / Math.max(of, 1))}%)`;
}

/** Types seen now that were not then; `integer` is no news where `number` was seen. */
function newTypes(before: Counts, after: Counts): string[] {
  return keysOf(after).filter((t) => !(t in before) && !(t === 'integer' && 'number' in before));
}

/** A field's name that says it names a thing or a place (`agileId`, `href`, `genericUrl`, `uuid`). */
const NAMES_A_THING =
  /^(?:id|ids|nid|uuid|href|url|uri)$|[a-z0-9](?:Id|ID|Ids|Uuid|UUID|Href|Url|URL|Uri)$/;
/** String formats of identifiers, links and dates: no set of values to choose from. */
const OPEN_FORMATS = new Set(['uri', 'uuid', 'date', 'date-time']);

function isEnumLike(
  pointer: string,
  loc: LocationProfile,
  place: DeclaredPlace | undefined,
  t: DriftThresholds,
): boolean {
  // A declared enum is the validators' to judge; a new value inside it is no drift.
  if (place?.enumerated) return false;
  if (NAMES_A_THING.test(pointer.slice(pointer.lastIndexOf('/') + 1))) return false;
  const formats = keysOf(loc.formats);
  if (formats.length > 0 && formats.every((f) => OPEN_FORMATS.has(f))) return false;
  if ([...(place?.formats ?? [])].some((f) => OPEN_FORMATS.has(f))) return false;
  const distinct = keysOf(loc.values).length;
  const strings = loc.types.string ?? 0;
  return !loc.open && distinct > 0 && strings >= t.minRecords && strings >= t.enumRepeat * distinct;
}

/** Whether the document allows every type in `types` at a place (`integer` where `number` is). */
function allowedTypes(place: DeclaredPlace | undefined, types: readonly string[]): boolean {
  const declared = place?.types;
  return (
    declared !== undefined &&
    types.every((t) => declared.has(t) || (t === 'integer' && declared.has('number')))
  );
}

type Emit = (
  d: Omit<Drift, 'severity' | 'operationId' | 'example'> & { severity?: Drift['severity'] },
) => void;

/** One place seen on both nights, with the document's word on it. */
interface Compared {
  pointer: string;
  was: LocationProfile;
  now: LocationProfile;
  place: DeclaredPlace | undefined;
  t: DriftThresholds;
  emit: Emit;
}

/** A change of JSON type at a place: none where the document allows the new types. */
function compareTypes({ pointer, was, now, place, t, emit }: Compared): void {
  const added = newTypes(was.types, now.types);
  if (added.length === 0 || allowedTypes(place, added)) return;
  const nullOnly = added.length === 1 && added[0] === 'null';
  // Where the document states the types, the validators fail what it does not allow; where it is
  // silent, a few values are a sample, not behaviour.
  const sample = place?.types === undefined && was.count < t.minRecords;
  emit({
    kind: nullOnly ? 'nullability' : 'type',
    severity: sample ? 'warning' : 'failure',
    pointer,
    before: showCounts(was.types),
    after: showCounts(now.types),
    message:
      (nullOnly
        ? `${pointer} is null now; it never was in ${was.count} value(s) seen`
        : `${pointer} is now of type ${added.join(', ')}, never in ${was.count} value(s) seen`) +
      (sample ? ` (fewer than ${t.minRecords}: a sample, not behaviour)` : ''),
  });
}

/** A string format the values kept then and left tonight, where the document names none. */
function compareFormats({ pointer, was, now, t, emit }: Compared): void {
  const formats = keysOf(was.formats);
  const changed = keysOf(now.formats).filter((f) => !formats.includes(f));
  if (formats.length !== 1 || formats[0] === 'other' || changed.length === 0) return;
  const [format] = formats;
  const seen = was.formats![format];
  const tonight = Object.values(now.formats ?? {}).reduce((a, b) => a + b, 0);
  const left = tonight - (now.formats![format] ?? 0);
  // Behaviour changed when it was seen often enough then and (nearly) every value left it tonight.
  const behaviour = seen >= t.minRecords && left >= t.presence * tonight;
  emit({
    kind: 'format',
    severity: behaviour ? 'failure' : 'warning',
    pointer,
    before: showCounts(was.formats),
    after: showCounts(now.formats),
    message: `${pointer} was written as ${format} in all ${seen} string(s) seen; now ${share(left, tonight)} as ${changed.join(', ')}`,
  });
}

/** New values of an enum-like string. */
function compareValues({ pointer, was, now, place, t, emit }: Compared): void {
  if (!isEnumLike(pointer, was, place, t)) return;
  const known = keysOf(was.values);
  const fresh = now.open ? [] : keysOf(now.values).filter((v) => !known.includes(v));
  if (!now.open && fresh.length === 0) return;
  const shown = fresh.map((v) => JSON.stringify(v)).join(', ');
  emit({
    kind: 'enum-value',
    pointer,
    before: known.map((v) => JSON.stringify(v)).join(', '),
    after: now.open ? 'more distinct values than the profile keeps' : shown,
    message: now.open
      ? `${pointer} took ${known.length} value(s) in ${was.types.string} strings seen; now many`
      : `${pointer} took ${known.length} value(s) in ${was.types.string} strings seen; now also ${shown}`,
  });
}

function compareLocations(
  status: string,
  before: Record<string, LocationProfile>,
  after: Record<string, LocationProfile>,
  t: DriftThresholds,
  placeOf: (pointer: string) => DeclaredPlace | undefined,
  emit: Emit,
): void {
  const at: Emit = (d) => emit({ ...d, status });
  for (const pointer of Object.keys(before).sort()) {
    const was = before[pointer];
    const now = after[pointer];
    const parent = parentOf(pointer);
    const parentsThen = objectsAt(before, parent);
    const parentsNow = objectsAt(after, parent);
    if (
      parent !== undefined &&
      !pointer.endsWith('/*') &&
      parentsThen >= t.minRecords &&
      parentsNow >= t.minRecords &&
      was.count >= t.presence * parentsThen &&
      (now?.count ?? 0) === 0
    ) {
      at({
        kind: 'field-removed',
        pointer,
        before: `carried by ${share(was.count, parentsThen)}`,
        after: `carried by ${share(0, parentsNow)}`,
        message: `${pointer} was carried by (nearly) every record and now by none`,
      });
      continue;
    }
    if (!now) continue;
    const compared: Compared = { pointer, was, now, place: placeOf(pointer), t, emit: at };
    compareTypes(compared);
    compareFormats(compared);
    compareValues(compared);
  }
  for (const pointer of Object.keys(after).sort()) {
    if (pointer in before || pointer.endsWith('/*')) continue;
    const parent = parentOf(pointer);
    if (parent === undefined || !(parent in before) || objectsAt(before, parent) < t.minRecords)
      continue;
    const parentsNow = objectsAt(after, parent);
    // A field in some records tonight is a sample (optional data); one in (nearly) every record is behaviour.
    if (parentsNow < t.minRecords || after[pointer].count < t.presence * parentsNow) continue;
    at({
      kind: 'new-field',
      pointer,
      before: `carried by ${share(0, objectsAt(before, parent))}`,
      after: `carried by ${share(after[pointer].count, parentsNow)}`,
      message: `${pointer} is new`,
    });
  }
}

/** The one `<field> asc|desc` readings that fitted every page and varied on some. */
function orderings(order: { pages: number; fits: Counts; strict: Counts }): string[] {
  if (order.pages === 0) return [];
  return keysOf(order.fits).filter(
    (c) => order.fits[c] === order.pages && (order.strict[c] ?? 0) > 0,
  );
}

/** What `offset` was seen to count, when the pages told. */
function offsetReading(offset: { informative: number; page: number; item: number }) {
  if (offset.informative === 0) return undefined;
  if (offset.page === offset.informative && offset.item < offset.informative) return 'page';
  if (offset.item === offset.informative && offset.page < offset.informative) return 'item';
  return undefined;
}

function compareLists(was: OperationProfile, now: OperationProfile, emit: Emit): void {
  const b = was.list;
  const a = now.list;
  if (!b || !a) return;
  for (const [name, then, tonight] of [
    ['records on a full default page', b.defaultSizes, a.defaultSizes],
    ['pagination.limit on a default page', b.defaultEchoedLimit, a.defaultEchoedLimit],
  ] as const) {
    const known = keysOf(then);
    const seen = keysOf(tonight);
    if (known.length > 0 && seen.some((s) => !known.includes(s)))
      emit({
        kind: 'default-limit',
        status: '200',
        pointer: 'query:limit',
        before: `${name}: ${showCounts(then)}`,
        after: `${name}: ${showCounts(tonight)}`,
        message: `the default page size changed (${known.join(', ')} -> ${seen.join(', ')})`,
      });
  }
  const fitted = orderings(b.defaultOrder);
  if (fitted.length > 0 && a.defaultOrder.pages > 0) {
    const still = fitted.filter((c) => (a.defaultOrder.fits[c] ?? 0) === a.defaultOrder.pages);
    if (still.length === 0) {
      const fitsNow = orderings(a.defaultOrder);
      emit({
        kind: 'default-order',
        status: '200',
        pointer: 'query:order',
        before: `records in ${fitted.join(' / ')} order on all ${b.defaultOrder.pages} page(s) asked without an order`,
        after: fitsNow.length
          ? `in ${fitsNow.join(' / ')} order on ${a.defaultOrder.pages} page(s)`
          : `in none of those orders (${fitted.map((c) => `${c} on ${a.defaultOrder.fits[c] ?? 0}`).join(', ')} of ${a.defaultOrder.pages} page(s))`,
        message: 'the order of records asked without an order changed',
      });
    }
  }
  const then = offsetReading(b.offset);
  const tonight = offsetReading(a.offset);
  if (then && tonight && then !== tonight)
    emit({
      kind: 'offset',
      status: '200',
      pointer: 'query:offset',
      before: `offset counted ${then}s (${b.offset.informative} telling page(s))`,
      after: `offset counts ${tonight}s (${a.offset.informative} telling page(s))`,
      message: `offset now counts ${tonight}s, not ${then}s`,
    });
  const honoured = b.largestLimitHonoured;
  if (
    honoured !== undefined &&
    (a.largestLimitAsked ?? 0) >= honoured &&
    (a.largestLimitHonoured ?? 0) < honoured
  )
    emit({
      kind: 'limit-honoured',
      status: '200',
      pointer: 'query:limit',
      before: `limit=${honoured} answered with ${honoured} records`,
      after: `largest limit honoured: ${a.largestLimitHonoured ?? 'none'} (asked up to ${a.largestLimitAsked})`,
      message: `limit=${honoured} is no longer honoured`,
    });
}

function compareOperation(
  operationId: string,
  was: OperationProfile,
  now: OperationProfile,
  t: DriftThresholds,
  declared: DeclaredLookup | undefined,
): Drift[] {
  const out: Drift[] = [];
  const emit: Emit = (d) =>
    out.push({
      operationId,
      ...d,
      severity: d.severity ?? SEVERITY[d.kind],
      example: (d.status && (now.examples[d.status] ?? was.examples[d.status])) || undefined,
    });
  for (const status of keysOf(now.statuses))
    if (!(status in was.statuses))
      out.push({
        severity: SEVERITY.status,
        kind: 'status',
        operationId,
        status,
        pointer: 'status',
        before: showCounts(was.statuses),
        after: showCounts(now.statuses),
        message: `${operationId} answered ${status}, never seen on it before`,
        example: now.examples[status],
      });
  for (const status of keysOf(was.bodies))
    if (now.bodies[status])
      compareLocations(
        status,
        was.bodies[status].locations,
        now.bodies[status].locations,
        t,
        (pointer) => declared?.(operationId, status, pointer),
        emit,
      );
  compareLists(was, now, emit);
  return out;
}

const ORDER: Record<Drift['severity'], number> = { failure: 0, warning: 1 };

/**
 * Every drift from `before` (then) to `after` (tonight), failures first, then by operation and
 * pointer. `declared` is the document's word on each place (`declaredLookup`); without it every
 * place counts as one the document is silent on.
 */
export function compareProfiles(
  before: Profile,
  after: Profile,
  thresholds: DriftThresholds = DEFAULT_THRESHOLDS,
  declared?: DeclaredLookup,
): Drift[] {
  const out: Drift[] = [];
  for (const id of Object.keys(after.operations).sort())
    if (before.operations[id])
      out.push(
        ...compareOperation(id, before.operations[id], after.operations[id], thresholds, declared),
      );
  const key = (d: Drift) =>
    `${d.operationId}\u0000${d.status ?? ''}\u0000${d.pointer}\u0000${d.kind}`;
  return out.sort(
    (x, y) =>
      ORDER[x.severity] - ORDER[y.severity] || (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0),
  );
}
