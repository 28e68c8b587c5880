/**
 * @module evidence/observe
 * Folds one response into a profile (profile.ts): its status, media type and headers, every JSON
 * location of its body (types, string formats, enum-like values, numeric ranges, array lengths),
 * the shape of an error body, and for a list page what it says about the default page size, the
 * largest `limit` honoured, what `offset` counts and the order records come in when none is asked.
 * Pure apart from changing the profile it is given; what it may keep of a value is decided here:
 * never a string holding a key, never a personal-looking value of a field the document does not
 * declare, never one longer than the profile's bounds. Every name a server chose (header, field,
 * media type) is kept with any key in it redacted and cut to MAX_NAME_CHARS (counted in
 * `namesCut`); a number beyond a double's range is counted, not kept; a body nested deeper than
 * MAX_PROFILE_DEPTH leaves that one answer out (counted in `unprofiled`).
 */
import { compareValues, escapeSegment } from '../contract/index.js';
import {
  findPersonalData,
  looksPersonal,
  personalName,
  personalValue,
} from '../recordings/personal-data.js';
import { holdsSecret, redactSecrets } from '../redaction.js';
import {
  bump,
  capKeys,
  dataRecord,
  emptyList,
  emptyOperation,
  entryOf,
  MAX_NAME_CHARS,
  MAX_PROFILE_DEPTH,
  mergeInto,
  setEntry,
  type BodyProfile,
  type JsonType,
  type ListProfile,
  type LocationProfile,
  type OperationProfile,
  type Profile,
  type StringFormat,
} from './profile.js';

/** One response as whoever received it saw it. */
export interface Observation {
  operationId: string;
  method: string;
  /** Path below the base URL, percent-encoded (`/product-parts/A%23B`). */
  path: string;
  /** Query pairs as sent (decoded). */
  query: readonly (readonly [string, string])[];
  /**
   * The parameters the list facts read (`limit`, `offset`, `order...`): defaults to `query`; a
   * POST list (search) passes its JSON body's top-level values here (see `paramsOf`).
   */
  params?: readonly (readonly [string, string])[];
  /**
   * The request's JSON body (a POST): shown after the path in the example request when the line
   * stays short and holds no key or personal-looking value, so a drift's repro line can send it.
   */
  requestBody?: unknown;
  status: number;
  /** Response headers (any case). */
  headers: Headers | Readonly<Record<string, string>>;
  /** Media type without parameters; read from `content-type` when not given. */
  mediaType?: string;
  /** The parsed JSON body; undefined when there is none or it is not JSON. */
  body?: unknown;
  /**
   * Pointer patterns (`/data/*\/extra`) of the fields the document does not declare for this
   * response; everything below one is undeclared too. Undefined: every field counts as undeclared
   * (the cautious reading when no document is at hand). A function is asked only when a value
   * looks personal (walking the document beside the body costs as much as the fold itself).
   */
  undeclared?: readonly string[] | (() => readonly string[] | undefined);
}

export interface ObserveOptions {
  /** Every key in play: a string that holds one is never kept (nor a request naming one). */
  secrets?: readonly string[];
  /**
   * The target's origins (`http://127.0.0.1:4010`): written as `{origin}` in the values kept, so
   * a profile does not depend on the port a run happened to get, and one service's profiles
   * from different hosts compare.
   */
  origins?: readonly string[];
}

/** The placeholder a target's origin is written as in kept values. */
export const ORIGIN_PLACEHOLDER = '{origin}';

/** Records fewer than this on a page say nothing about their order. */
export const MIN_ORDER_RECORDS = 3;
/** Longest example request kept. */
const MAX_EXAMPLE_CHARS = 300;
/** Longest error shape (its field names joined) kept as it is. */
const MAX_SHAPE_CHARS = 200;
/**
 * Headers whose values are kept (as a range): the quota. `x-ratelimit-remaining` counts down and
 * `Retry-After` counts the seconds left in a window, so their values depend on the order and the
 * moment of requests, not on what the service does: only their presence is counted.
 */
const QUOTA_HEADER = /^(x-)?rate-?limit(-limit)?$/i;
const ORDER_PARAM = /^(order|sort)/i;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const URI = /^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i;

/** The format a string is written in, as far as a client parsing it cares. */
export function formatOf(value: string): StringFormat {
  // Cheap tests first: most strings are none of these, and a body holds thousands of them.
  const first = value.charCodeAt(0);
  if (first >= 48 && first <= 57) {
    if (DATE.test(value)) return 'date';
    if (DATE_TIME.test(value)) return 'date-time';
  }
  if (value.length === 36 && UUID.test(value)) return 'uuid';
  if (value.includes('://') && URI.test(value)) return 'uri';
  return 'other';
}

export function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object')
    return typeof value as JsonType;
  return 'null';
}

function headerEntries(headers: Observation['headers']): [string, string][] {
  const out: [string, string][] = [];
  if (headers instanceof Headers)
    headers.forEach((value, name) => out.push([name.toLowerCase(), value]));
  else
    for (const [name, value] of Object.entries(headers))
      out.push([name.toLowerCase(), String(value)]);
  return out;
}

/** Names a server chose, as a profile keeps them: any key redacted, cut to MAX_NAME_CHARS. */
class ServerNames {
  /** Names cut short so far. */
  cut = 0;
  readonly #kept = new Map<string, string>();
  constructor(private readonly secrets: readonly string[]) {}

  /** The name as kept; each distinct name is worked out once (a body repeats its names). */
  of(raw: string): string {
    let kept = this.#kept.get(raw);
    if (kept === undefined) {
      kept = redactSecrets(raw, this.secrets);
      if (kept.length > MAX_NAME_CHARS) {
        kept = `${kept.slice(0, MAX_NAME_CHARS)}…`;
        this.cut += 1;
      }
      this.#kept.set(raw, kept);
    }
    return kept;
  }
}

/** A body nested deeper than MAX_PROFILE_DEPTH: that answer is left out of the profile. */
class TooDeep extends Error {}

function widen(range: { min: number; max: number } | undefined, n: number) {
  return range ? { min: Math.min(range.min, n), max: Math.max(range.max, n) } : { min: n, max: n };
}

/** Whether `pointer` is an undeclared field or lies below one. */
function isUndeclared(pointer: string, undeclared: readonly string[] | undefined): boolean {
  if (undeclared === undefined) return true;
  return undeclared.some((u) => pointer === u || pointer.startsWith(`${u}/`));
}

/** `obs.undeclared`, worked out at most once per response and only if asked. */
function undeclaredOf(obs: Observation): () => readonly string[] | undefined {
  let known: { value: readonly string[] | undefined } | undefined;
  return () => {
    const given = obs.undeclared;
    known ??= { value: typeof given === 'function' ? given() : given };
    return known.value;
  };
}

/** Every JSON location of a body, folded into `body` (one response's worth). */
function walkBody(
  body: BodyProfile,
  value: unknown,
  obs: Observation,
  bounds: Profile['bounds'],
  options: ObserveOptions,
  serverNames: ServerNames,
): void {
  const secrets = options.secrets ?? [];
  const origins = (options.origins ?? []).filter((o) => o !== '');
  // An error body's values say when and what was asked ("retry after 59 s", the id not found), not
  // what the service does: its shape is kept (types, formats, lengths), not its values or numbers.
  const valuesToo = obs.status < 400;
  const undeclared = undeclaredOf(obs);
  // A body repeats its field names thousands of times: each name is judged once.
  const names = new Map<string, boolean>();
  const personal = (name: string, text: string): boolean => {
    let byName = names.get(name);
    if (byName === undefined) names.set(name, (byName = personalName(name) !== undefined));
    return byName || personalValue(text) !== undefined;
  };
  const visit = (v: unknown, pointer: string, name: string, depth: number): void => {
    if (depth > MAX_PROFILE_DEPTH) throw new TooDeep(`nested deeper than ${MAX_PROFILE_DEPTH}`);
    const loc = entryOf(body.locations, pointer, (): LocationProfile => ({
      count: 0,
      types: dataRecord(),
    }));
    const type = typeOf(v);
    loc.count++;
    bump(loc.types, type);
    if (type === 'string') {
      let text = v as string;
      for (const origin of origins) text = text.split(origin).join(ORIGIN_PLACEHOLDER);
      bump((loc.formats ??= dataRecord()), formatOf(v as string));
      if (!valuesToo) return;
      const keep =
        !loc.open &&
        text.length <= bounds.valueChars &&
        !holdsSecret(text, secrets) &&
        !(personal(name, text) && isUndeclared(pointer, undeclared()));
      if (!keep) {
        loc.open = true;
        delete loc.values;
      } else {
        bump((loc.values ??= dataRecord()), text);
        if (Object.keys(loc.values).length > bounds.values) {
          loc.open = true;
          delete loc.values;
        }
      }
    } else if (type === 'integer' || type === 'number') {
      if (!Number.isFinite(v)) loc.outOfRange = (loc.outOfRange ?? 0) + 1;
      else if (valuesToo) loc.numbers = widen(loc.numbers, v as number);
    } else if (type === 'array') {
      const items = v as unknown[];
      loc.lengths = widen(loc.lengths, items.length);
      for (const item of items) visit(item, `${pointer}/*`, name, depth + 1);
    } else if (type === 'object')
      for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
        const kept = serverNames.of(key);
        visit(child, `${pointer}/${escapeSegment(kept)}`, kept, depth + 1);
      }
  };
  visit(value, '', '', 0);
  const dropped = capKeys(body.locations, bounds.locations);
  if (dropped > 0) body.dropped = dropped;
}

/**
 * The request as an example line (`GET /products?limit=2`, or `POST /search {"limit":5}` with its
 * JSON body), or undefined when it is too long or carries a key or a personal-looking value.
 */
export function exampleOf(obs: Observation, secrets: readonly string[]): string | undefined {
  const query = obs.query
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  const line = `${obs.method.toUpperCase()} ${obs.path}${query ? `?${query}` : ''}`;
  if (line.length > MAX_EXAMPLE_CHARS || holdsSecret(line, secrets)) return undefined;
  if (obs.query.some(([k, v]) => looksPersonal(k, v, { secrets }) !== undefined)) return undefined;
  if (obs.requestBody === undefined) return line;
  const withBody = `${line} ${JSON.stringify(obs.requestBody)}`;
  // A POST without its body would not repeat the request: then this one is no example.
  const bodyFits =
    withBody.length <= MAX_EXAMPLE_CHARS &&
    !holdsSecret(withBody, secrets) &&
    findPersonalData(obs.requestBody, { secrets }) === undefined;
  return bodyFits ? withBody : undefined;
}

/** An example line's parts: method, path with query, and the JSON body when one was kept. */
export function parseExample(
  example: string,
): { method: string; path: string; body?: string } | undefined {
  const match = /^(\S+) (\S+)(?: (.+))?$/s.exec(example);
  if (!match) return undefined;
  return { method: match[1], path: match[2], ...(match[3] ? { body: match[3] } : {}) };
}

/** Query pairs plus a JSON request body's top-level strings, numbers and booleans. */
export function paramsOf(query: Observation['query'], requestBody: unknown): [string, string][] {
  const out: [string, string][] = query.map(([k, v]) => [k, v]);
  if (requestBody && typeof requestBody === 'object' && !Array.isArray(requestBody))
    for (const [k, v] of Object.entries(requestBody))
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        out.push([k, String(v)]);
  return out;
}

function numberParam(query: Observation['query'], name: string): number | undefined {
  const raw = query.find(([k]) => k === name)?.[1];
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isSafeInteger(n) ? n : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Which `<field> asc|desc` a page's records fit, and whether the field varied on it. */
function orderFits(
  records: readonly unknown[],
  list: ListProfile,
  cap: number,
  serverNames: ServerNames,
): void {
  if (records.length < MIN_ORDER_RECORDS) return;
  if (!records.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) return;
  const rows = records as Record<string, unknown>[];
  const field = (r: Record<string, unknown>, f: string) => (Object.hasOwn(r, f) ? r[f] : undefined);
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))]
    .filter((f) =>
      rows.every((r) => {
        const v = field(r, f);
        return v === undefined || v === null || typeof v === 'string' || typeof v === 'number';
      }),
    )
    .sort()
    .slice(0, Math.floor(cap / 2));
  list.defaultOrder.pages++;
  for (const f of fields) {
    const values = rows.map((r) => field(r, f) as string | number | null | undefined);
    let asc = true;
    let desc = true;
    let varied = false;
    for (let i = 1; i < values.length; i++) {
      const c = compareValues(values[i - 1] ?? null, values[i] ?? null);
      if (c > 0) asc = false;
      if (c < 0) desc = false;
      if (c !== 0) varied = true;
    }
    for (const [fits, direction] of [
      [asc, 'asc'],
      [desc, 'desc'],
    ] as const) {
      if (!fits) continue;
      const candidate = `${serverNames.of(f)} ${direction}`;
      bump(list.defaultOrder.fits, candidate);
      if (varied) bump(list.defaultOrder.strict, candidate);
    }
  }
}

/** What a successful list page says; undefined when the body is not one. */
function listOf(obs: Observation, cap: number, serverNames: ServerNames): ListProfile | undefined {
  const body = obs.body as { data?: unknown; pagination?: Record<string, unknown> } | undefined;
  if (!body || typeof body !== 'object' || !Array.isArray(body.data)) return undefined;
  if (obs.status < 200 || obs.status >= 300) return undefined;
  const list = emptyList();
  const records = body.data;
  const size = records.length;
  const pagination = body.pagination && typeof body.pagination === 'object' ? body.pagination : {};
  const hasMore = typeof pagination.has_more === 'boolean' ? pagination.has_more : undefined;
  const total = num(pagination.total);
  const echoed = num(pagination.limit);
  const params = obs.params ?? obs.query;
  const limit = numberParam(params, 'limit');
  const offset = numberParam(params, 'offset') ?? 0;
  if (limit === undefined && offset === 0) {
    const more = hasMore ?? (total !== undefined ? total > size : false);
    if (more) bump(list.defaultSizes, String(size));
    if (echoed !== undefined) bump(list.defaultEchoedLimit, String(echoed));
  }
  if (limit !== undefined) {
    list.largestLimitAsked = limit;
    if (size === limit) list.largestLimitHonoured = limit;
  }
  const pageSize = limit ?? echoed;
  if (offset > 0 && total !== undefined && pageSize !== undefined) {
    const readings = { page: offset * pageSize, item: offset };
    const predict = (skipped: number) => ({
      more: skipped + size < total,
      empty: skipped >= total,
    });
    const page = predict(readings.page);
    const item = predict(readings.item);
    if (page.more !== item.more || page.empty !== item.empty) {
      list.offset.informative++;
      const fits = (p: { more: boolean; empty: boolean }) =>
        (hasMore === undefined || hasMore === p.more) && (size === 0) === p.empty;
      if (fits(page)) list.offset.page++;
      if (fits(item)) list.offset.item++;
    }
  }
  if (!params.some(([k]) => ORDER_PARAM.test(k))) orderFits(records, list, cap, serverNames);
  return list;
}

/** One response as a profile of its own (merged into the running one by `observe`). */
export function profileOf(
  obs: Observation,
  bounds: Profile['bounds'],
  options: ObserveOptions = {},
): Profile {
  const secrets = options.secrets ?? [];
  const serverNames = new ServerNames(secrets);
  const op: OperationProfile = emptyOperation();
  const status = String(obs.status);
  const headers = headerEntries(obs.headers);
  op.count = 1;
  bump(op.statuses, status);
  const mediaType =
    obs.mediaType ??
    (headers.find(([n]) => n === 'content-type')?.[1] ?? '').split(';')[0].trim().toLowerCase();
  bump(op.contentTypes, serverNames.of(mediaType));
  for (const [raw, value] of headers) {
    const name = serverNames.of(raw);
    setEntry(op.headers, name, 1);
    const quota = /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
    // A 400-digit limit reads as infinity: its presence is counted, its value not kept.
    if (QUOTA_HEADER.test(name) && Number.isFinite(quota))
      setEntry(op.headerValues, name, widen(undefined, quota));
  }
  capKeys(op.headers, bounds.keys);
  capKeys(op.headerValues, bounds.keys);
  if (obs.body !== undefined) {
    const body: BodyProfile = { count: 1, locations: dataRecord() };
    walkBody(body, obs.body, obs, bounds, options, serverNames);
    setEntry(op.bodies, status, body);
    if (obs.status >= 400 && obs.body !== null && typeof obs.body === 'object') {
      const names = Array.isArray(obs.body)
        ? '(array)'
        : Object.keys(obs.body)
            .map((name) => serverNames.of(name))
            .sort()
            .join(',');
      const shape = dataRecord<number>();
      bump(shape, names.length > MAX_SHAPE_CHARS ? '(many fields)' : names);
      setEntry(op.errorShapes, status, shape);
    }
  }
  const example = exampleOf(obs, secrets);
  if (example !== undefined) setEntry(op.examples, status, example);
  const list = listOf(obs, bounds.keys, serverNames);
  if (list) op.list = list;
  const operations = dataRecord<OperationProfile>();
  setEntry(operations, obs.operationId, op);
  return {
    format: 'web-data-profile/1',
    bounds: { ...bounds },
    count: 1,
    operations,
    ...(serverNames.cut > 0 ? { namesCut: serverNames.cut } : {}),
  };
}

/**
 * Folds one response into `profile` (changed in place) and returns it. An answer nested deeper
 * than MAX_PROFILE_DEPTH is left out and counted in `unprofiled`: one odd answer never costs the
 * profile.
 */
export function observe(profile: Profile, obs: Observation, options: ObserveOptions = {}): Profile {
  let one: Profile;
  try {
    one = profileOf(obs, profile.bounds, options);
  } catch (error) {
    if (!(error instanceof TooDeep || error instanceof RangeError)) throw error;
    profile.unprofiled = (profile.unprofiled ?? 0) + 1;
    return profile;
  }
  return mergeInto(profile, one);
}
