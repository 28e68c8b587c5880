/**
 * @module recordings/replay
 * `createReplayMiddleware(dir)`: serves fixtures the proxy recorded (format in format.ts, loaded
 * and checked by load.ts) for matching requests, with the very body bytes recorded, and falls
 * through to the next handler when nothing matches. Meant to sit after auth in the mock (`--replay <dir>`), under any base path
 * ending in `/web-data/v1`. The directory is read once, when the middleware is built.
 */
import type { Env, MiddlewareHandler } from 'hono';
import { BASE_PATH } from '../contract/index.js';
import { splitUrl } from '../net/request-url.js';
import { canonicalRequest, fixtureKey } from './format.js';
import { loadRecordings } from './load.js';

/** The path below `/web-data/v1` (or `/staging/web-data/v1`), still encoded; undefined elsewhere. */
function pathBelowBase(url: string): { rawPath: string; search: string } | undefined {
  const { rawPath, search } = splitUrl(url);
  const base = rawPath.indexOf(`${BASE_PATH}/`);
  return base === -1 ? undefined : { rawPath: rawPath.slice(base + BASE_PATH.length), search };
}

/** Recorded POST bodies are small (search filters, part numbers); a larger one is left to the app's own limit. */
const MAX_MATCHED_BODY_BYTES = 1024 * 1024;

/** Header naming the operation a replayed response was recorded for. */
export const REPLAYED_HEADER = 'x-replayed-from';

export function createReplayMiddleware<E extends Env = Env>(dir: string): MiddlewareHandler<E> {
  const recordings = loadRecordings(dir);
  return async function replayRecorded(c, next) {
    const where = pathBelowBase(c.req.url);
    if (!where || recordings.size === 0) return next();
    let body: Uint8Array | undefined;
    if (c.req.method === 'POST') {
      const length = Number(c.req.header('content-length') ?? Number.NaN);
      if (!(length <= MAX_MATCHED_BODY_BYTES)) return next();
      body = new Uint8Array(await c.req.arrayBuffer());
    }
    const recording = recordings.get(
      fixtureKey(canonicalRequest(c.req.method, where.rawPath, where.search, body)),
    );
    if (!recording) return next();
    const { status, headers } = recording.meta.response;
    return new Response(recording.body.slice(), {
      status,
      headers: {
        ...headers,
        'content-length': String(recording.body.byteLength),
        [REPLAYED_HEADER]: recording.meta.operationId,
      },
    });
  };
}
