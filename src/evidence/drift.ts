/**
 * @module evidence/drift
 * What the service did tonight against what it did then: the comparison of two observed profiles
 * (profile.ts), pure. A client that worked yesterday breaks on removals and on changes of type,
 * nullability, string format, default page size, default order, what `offset` counts or the
 * largest `limit` honoured: those are failures, whatever the document says or leaves unsaid. New
 * fields, new values of an enum-like string and statuses never seen on an operation are warnings.
 * Thresholds (`DriftThresholds`) keep one sampled page from standing for "every record".
 */
import type { Counts, LocationProfile, OperationProfile, Profile } from './profile.js';

export interface DriftThresholds {
  /** A field counts as carried by (nearly) every record when at least this share of its parent objects carried it. */
  presence: number;
  /** ... and only when the parent objects were seen at least this many times on both nights (a sampled page is not every record). */
  minRecords: number;
  /** A string location is enum-like when it was seen at least this many times per distinct value. */
  enumRepeat: number;
}

export const DEFAULT_THRESHOLDS: DriftThresholds = {
  presence: 0.95,
  minRecords: 10,
  enumRepeat: 2,
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

function isEnumLike(loc: LocationProfile, t: DriftThresholds): boolean {
  const distinct = keysOf(loc.values).length;
  return !loc.open && distinct > 0 && loc.count >= t.enumRepeat * distinct;
}

type Emit = (d: Omit<Drift, 'severity' | 'operationId' | 'example'>) => void;

function compareLocations(
  status: string,
  before: Record<string, LocationProfile>,
  after: Record<string, LocationProfile>,
  t: DriftThresholds,
  emit: Emit,
): void {
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
      emit({
        kind: 'field-removed',
        status,
        pointer,
        before: `carried by ${share(was.count, parentsThen)}`,
        after: `carried by ${share(0, parentsNow)}`,
        message: `${pointer} was carried by (nearly) every record and now by none`,
      });
      continue;
    }
    if (!now) continue;
    const added = newTypes(was.types, now.types);
    if (added.length > 0)
      emit({
        kind: added.length === 1 && added[0] === 'null' ? 'nullability' : 'type',
        status,
        pointer,
        before: showCounts(was.types),
        after: showCounts(now.types),
        message:
          added.length === 1 && added[0] === 'null'
            ? `${pointer} is null now; it never was`
            : `${pointer} is now of type ${added.join(', ')}, never seen there before`,
      });
    const formats = keysOf(was.formats);
    const changed = keysOf(now.formats).filter((f) => !formats.includes(f));
    if (formats.length === 1 && formats[0] !== 'other' && changed.length > 0)
      emit({
        kind: 'format',
        status,
        pointer,
        before: showCounts(was.formats),
        after: showCounts(now.formats),
        message: `${pointer} was always written as ${formats[0]}; now as ${changed.join(', ')}`,
      });
    if (isEnumLike(was, t)) {
      const known = keysOf(was.values);
      const fresh = now.open ? [] : keysOf(now.values).filter((v) => !known.includes(v));
      if (now.open || fresh.length > 0)
        emit({
          kind: 'enum-value',
          status,
          pointer,
          before: known.map((v) => JSON.stringify(v)).join(', '),
          after: now.open
            ? 'more distinct values than the profile keeps'
            : fresh.map((v) => JSON.stringify(v)).join(', '),
          message: now.open
            ? `${pointer} took a few values only; now many`
            : `${pointer} has value(s) never seen before: ${fresh.map((v) => JSON.stringify(v)).join(', ')}`,
        });
    }
  }
  for (const pointer of Object.keys(after).sort()) {
    if (pointer in before || pointer.endsWith('/*')) continue;
    const parent = parentOf(pointer);
    if (parent === undefined || !(parent in before) || objectsAt(before, parent) < t.minRecords)
      continue;
    const parentsNow = objectsAt(after, parent);
    emit({
      kind: 'new-field',
      status,
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
): Drift[] {
  const out: Drift[] = [];
  const emit: Emit = (d) =>
    out.push({
      severity: SEVERITY[d.kind],
      operationId,
      ...d,
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
      compareLocations(status, was.bodies[status].locations, now.bodies[status].locations, t, emit);
  compareLists(was, now, emit);
  return out;
}

const ORDER: Record<Drift['severity'], number> = { failure: 0, warning: 1 };

/** Every drift from `before` (then) to `after` (tonight), failures first, then by operation and pointer. */
export function compareProfiles(
  before: Profile,
  after: Profile,
  thresholds: DriftThresholds = DEFAULT_THRESHOLDS,
): Drift[] {
  const out: Drift[] = [];
  for (const id of Object.keys(after.operations).sort())
    if (before.operations[id])
      out.push(...compareOperation(id, before.operations[id], after.operations[id], thresholds));
  const key = (d: Drift) =>
    `${d.operationId}\u0000${d.status ?? ''}\u0000${d.pointer}\u0000${d.kind}`;
  return out.sort(
    (x, y) =>
      ORDER[x.severity] - ORDER[y.severity] || (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0),
  );
}
