/**
 * @module respond
 * The shared building blocks of handlers: send ready JSON text, serve a list page through the
 * listing module, look a record up by identifier. Bodies are serialized once and cached.
 */
import type { Context } from 'hono';
import type { Collection } from '../../dataset/dataset.js';
import type { AppEnv } from '../env.js';
import type { ApiContext } from '../context.js';
import { apiError, badRequest, messages } from '../errors.js';
import { toListQuery, type Listing } from './listing.js';
import { jsonBytesResponse } from '../response.js';

export type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;

const UTF8 = new TextEncoder();

/**
 * The headers a successful answer of this request carries besides its own (the rate limiter's
 * `x-ratelimit-*`, when the request went through it).
 */
export function answerHeaders(c: Context<AppEnv>): Record<string, string> {
  return c.get('rateLimitHeaders') ?? {};
}

/** Sends JSON text, or JSON already encoded (cached bytes skip a UTF-8 encoding per request). */
export function sendJson(
  c: Context<AppEnv>,
  body: string | Uint8Array<ArrayBuffer>,
  status: 200 = 200,
): Response {
  return jsonBytesResponse(status, body, answerHeaders(c));
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
export function sendPostJson(c: Context<AppEnv>, text: () => string): Response {
  const body = c.get('body');
  const key = answerKey(body, () => {
    const bodyText = JSON.stringify(body);
    return bodyText.length > POST_CACHE_MAX_BODY
      ? ''
      : `post:${c.get('operation').operationId}:${bodyText}`;
  });
  // An empty key: the body is too large to be a key.
  return sendJson(c, key === '' ? text() : encodedJson(c.get('api'), key, text));
}

/** The JSON text of an answer built by a handler, as the served release has it (the release view). */
export function answerText(c: Context<AppEnv>, body: unknown): string {
  const view = c.get('api').answerView(c.get('operation'));
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
    c: Context<AppEnv>,
  ) => { omit: string; positions: readonly number[] | null } | undefined,
): Handler {
  return (c) => {
    const api = c.get('api');
    const operation = c.get('operation');
    const input = c.get('input');
    const cacheKey = answerKey(
      input.query,
      () => `list:${operation.operationId}:${JSON.stringify(input.query)}`,
    );
    const cached = api.encoded.get(cacheKey);
    if (cached !== undefined) return sendJson(c, cached);
    const narrowing = within?.(c);
    const { query, problems } = toListQuery(operation, input.query, narrowing?.omit);
    if (problems.length > 0) throw badRequest(problems);
    const listing = pick(api);
    const page =
      narrowing?.positions === null
        ? listing.page(query, [])
        : listing.page(query, narrowing?.positions);
    return sendJson(
      c,
      encodedJson(api, cacheKey, () => envelope(api, listing.collection, page)),
    );
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
  return (c) => {
    const api = c.get('api');
    const input = c.get('input');
    const id = input.path[param];
    const collection = pick(api);
    const i = findOr404(locate ? locate(api, id) : collection.indexOf(id), what, id);
    // Keyed by position, found anew per request: a record a test adds may take a position
    // another added record held before a reset, so the key is never remembered per input.
    return sendJson(
      c,
      encodedJson(api, `record:${collection.name}:${i}`, () => recordJson(api, collection, i)),
    );
  };
}
