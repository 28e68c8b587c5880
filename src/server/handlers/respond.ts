/**
 * @module respond
 * The shared building blocks of handlers: send ready JSON text, serve a list page through the
 * listing module, look a record up by identifier. Bodies are serialized once and cached.
 */
import type { Context } from 'hono';
import type { Collection } from '../../fixtures/dataset.js';
import type { AppEnv } from '../env.js';
import type { ApiContext } from '../context.js';
import { apiError, badRequest, messages } from '../errors.js';
import { toListQuery, type Listing } from '../listing.js';

export type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;

const JSON_TYPE = 'application/json; charset=utf-8';

export function sendJson(c: Context<AppEnv>, text: string, status: 200 = 200): Response {
  c.header('content-type', JSON_TYPE);
  c.header('content-length', String(Buffer.byteLength(text)));
  return c.body(text, status);
}

/** The JSON text of record i, serialized once per dataset. */
export function recordJson(api: ApiContext, collection: Collection<unknown>, i: number): string {
  const prune = api.prune[collection.name];
  return api.bodies.getOrCreate(`record:${collection.name}:${i}`, () => JSON.stringify(prune ? prune(collection.record(i)) : collection.record(i)));
}

/** `{data, pagination}` around the given positions, from cached record JSON. */
export function envelope(api: ApiContext, collection: Collection<unknown>, page: { positions: ArrayLike<number>; offset: number; limit: number; total: number; hasMore: boolean }): string {
  const items: string[] = [];
  for (let k = 0; k < page.positions.length; k++) items.push(recordJson(api, collection, page.positions[k]));
  const pagination = JSON.stringify({ offset: page.offset, limit: page.limit, total: page.total, has_more: page.hasMore });
  return `{"data":[${items.join(',')}],"pagination":${pagination}}`;
}

/**
 * A list endpoint: validated query -> filter, sort, page -> envelope. `within` narrows the
 * candidates for a filter that maps to a dataset relation rather than a field (undefined: no
 * narrowing; null: the filter names nothing, so the list is empty).
 */
export function listHandler(pick: (api: ApiContext) => Listing<unknown>, within?: (c: Context<AppEnv>) => { omit: string; positions: readonly number[] | null } | undefined): Handler {
  return (c) => {
    const { api, operation, input } = c.var;
    const cacheKey = `list:${operation.operationId}:${JSON.stringify(input.query)}`;
    const cached = api.bodies.get(cacheKey);
    if (cached !== undefined) return sendJson(c, cached);
    const { query, problems } = toListQuery(operation, input.query);
    if (problems.length > 0) throw badRequest(problems);
    const narrowing = within?.(c);
    if (narrowing) query.filters = query.filters.filter((f) => f.field !== narrowing.omit);
    const listing = pick(api);
    const page = narrowing?.positions === null ? listing.page(query, []) : listing.page(query, narrowing?.positions);
    const text = envelope(api, listing.collection, page);
    api.bodies.set(cacheKey, text);
    return sendJson(c, text);
  };
}

/** Position of a record by a decoded identifier, or a 404 naming it. */
export function findOr404(position: number | undefined, what: string, id: string): number {
  if (position === undefined) throw apiError(404, messages.notFound(what, id));
  return position;
}

/** A by-ID endpoint whose body is the stored record. */
export function byIdHandler(pick: (api: ApiContext) => Collection<unknown>, param: string, what: string, locate?: (api: ApiContext, id: string) => number | undefined): Handler {
  return (c) => {
    const { api, input } = c.var;
    const id = input.path[param];
    const collection = pick(api);
    const i = findOr404(locate ? locate(api, id) : collection.indexOf(id), what, id);
    return sendJson(c, recordJson(api, collection, i));
  };
}
