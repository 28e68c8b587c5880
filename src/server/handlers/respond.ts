/**
 * @module respond
 * The shared building blocks of handlers: a handler is a pure function of the environment, the
 * operation and the validated input, and returns its answer as data (status, body, headers); it
 * never sees the request's Hono context. The pipeline's dispatch step (pipeline/dispatch.ts)
 * turns that answer into the response and adds what the request line adds (the rate limiter's
 * counters); the judge and the records' trial call handlers directly. Here too: serve a list page
 * through the listing module, look a record up by identifier. Bodies are serialized once and
 * cached. A 4xx is thrown (an `HTTPException` of errors.ts), never returned.
 */
import type { Operation, ParsedInput } from '../../contract/index.js';
import type { Collection } from '../../dataset/dataset.js';
import type { ApiContext } from '../context.js';
import { apiError, badRequest, messages } from '../errors.js';
import { toListQuery, type Listing } from './listing.js';

/** What a handler reads of a request: the validated path and query, and a POST's validated body. */
export interface HandlerInput extends ParsedInput {
  readonly body?: unknown;
}

/**
 * A handler's answer: its status, its body (JSON text, or bytes: JSON already encoded, or a file)
 * and its own headers. `content-type` is JSON's unless the headers say otherwise; the length is
 * the body's.
 */
export interface Answer {
  readonly status: number;
  readonly body: string | Uint8Array<ArrayBuffer>;
  readonly headers: Readonly<Record<string, string>>;
}

export type Handler = (api: ApiContext, operation: Operation, input: HandlerInput) => Answer;

/** The headers of an answer with none of its own (one object, never written to). */
export const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

const UTF8 = new TextEncoder();

/** A 200 with JSON text, or JSON already encoded (cached bytes skip a UTF-8 encoding per request). */
export function okJson(body: string | Uint8Array<ArrayBuffer>): Answer {
  return { status: 200, body, headers: NO_HEADERS };
}

/** The UTF-8 bytes of a response, encoded once and cached under `key`. */
export function encodedJson(
  api: ApiContext,
  key: string,
  text: () => string,
): Uint8Array<ArrayBuffer> {
  return api.encoded.getOrCreate(key, () => UTF8.encode(text()));
}

/**
 * The cache key of an answer, worked out once per validated input object. The validate step keeps
 * each valid input frozen and hands the same object out again for the same URL or body text, so
 * the key is built (and, being the same string, hashed by the cache's map) once per input rather
 * than once per request. An input that is not an object gets its key built every time.
 */
const answerKeys = new WeakMap<object, string>();
function answerKey(input: unknown, make: () => string): string {
  if (input === null || typeof input !== 'object') return make();
  let key = answerKeys.get(input);
  if (key === undefined) {
    key = make();
    answerKeys.set(input, key);
  }
  return key;
}

/** POST answers are cached only for bodies up to this many characters of JSON (a 200-number cross-reference is about 4,000). */
const POST_CACHE_MAX_BODY = 16 * 1024;

/**
 * A POST answer of this read-only API depends only on the operation and the validated body, so it
 * is encoded once per body (bounded like every encoded response; larger bodies are answered
 * uncached). `text` runs on a miss and may throw a 4xx, which is never cached.
 */
export function postJson(
  api: ApiContext,
  operation: Operation,
  body: unknown,
  text: () => string,
): Answer {
  const key = answerKey(body, () => {
    const bodyText = JSON.stringify(body);
    return bodyText.length > POST_CACHE_MAX_BODY ? '' : `post:${operation.operationId}:${bodyText}`;
  });
  // An empty key: the body is too large to be a key.
  return okJson(key === '' ? text() : encodedJson(api, key, text));
}

/** The JSON text of an answer built by a handler, as the served release has it (the release view). */
export function answerText(api: ApiContext, operation: Operation, body: unknown): string {
  const view = api.answerView(operation);
  return JSON.stringify(view ? view(body) : body);
}

/** The JSON text of record i, serialized once per dataset. */
export function recordJson(api: ApiContext, collection: Collection<unknown>, i: number): string {
  const prune = api.prune[collection.name];
  return api.recordTexts.getOrCreate(`record:${collection.name}:${i}`, () =>
    JSON.stringify(prune ? prune(collection.record(i)) : collection.record(i)),
  );
}

/** `{data, pagination}` around the given positions, from cached record JSON. */
export function envelope(
  api: ApiContext,
  collection: Collection<unknown>,
  page: {
    positions: ArrayLike<number>;
    offset: number;
    limit: number;
    total: number;
    hasMore: boolean;
  },
): string {
  const items: string[] = [];
  for (let k = 0; k < page.positions.length; k++)
    items.push(recordJson(api, collection, page.positions[k]));
  const pagination = JSON.stringify({
    offset: page.offset,
    limit: page.limit,
    total: page.total,
    has_more: page.hasMore,
  });
  return `{"data":[${items.join(',')}],"pagination":${pagination}}`;
}

/**
 * A list endpoint: validated query -> filter, sort, page -> envelope. `within` narrows the
 * candidates for a filter parameter (`omit`) that maps to a dataset relation rather than a field
 * (undefined: no narrowing; null: the filter names nothing, so the list is empty).
 */
export function listHandler(
  pick: (api: ApiContext) => Listing<unknown>,
  within?: (
    api: ApiContext,
    input: HandlerInput,
  ) => { omit: string; positions: readonly number[] | null } | undefined,
): Handler {
  return (api, operation, input) => {
    const cacheKey = answerKey(
      input.query,
      () => `list:${operation.operationId}:${JSON.stringify(input.query)}`,
    );
    const cached = api.encoded.get(cacheKey);
    if (cached !== undefined) return okJson(cached);
    const narrowing = within?.(api, input);
    const { query, problems } = toListQuery(operation, input.query, narrowing?.omit);
    if (problems.length > 0) throw badRequest(problems);
    const listing = pick(api);
    const page =
      narrowing?.positions === null
        ? listing.page(query, [])
        : listing.page(query, narrowing?.positions);
    return okJson(encodedJson(api, cacheKey, () => envelope(api, listing.collection, page)));
  };
}

/** Position of a record by a decoded identifier, or a 404 naming it. */
export function findOr404(position: number | undefined, what: string, id: string): number {
  if (position === undefined) throw apiError(404, messages.notFound(what, id));
  return position;
}

/** A by-ID endpoint whose body is the stored record. */
export function byIdHandler(
  pick: (api: ApiContext) => Collection<unknown>,
  param: string,
  what: string,
  locate?: (api: ApiContext, id: string) => number | undefined,
): Handler {
  return (api, _operation, input) => {
    const id = input.path[param];
    const collection = pick(api);
    const i = findOr404(locate ? locate(api, id) : collection.indexOf(id), what, id);
    // Keyed by position, found anew per request: a record a test adds may take a position
    // another added record held before a reset, so the key is never remembered per input.
    return okJson(
      encodedJson(api, `record:${collection.name}:${i}`, () => recordJson(api, collection, i)),
    );
  };
}
