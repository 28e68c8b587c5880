/**
 * @module recordings/replay
 * `createReplayMiddleware(dir)`: serves recordings the proxy made (format in format.ts, loaded
 * and checked by load.ts) for matching requests, with the very body bytes recorded, and falls
 * through to the next handler when nothing matches. Meant to sit after auth and the rate limiter in
 * the mock (`--replay <dir>`), under any base path ending in `/web-data/v1`. The directory is read
 * once, when the middleware is built. Recorded `x-ratelimit-*` headers are never replayed: they
 * were the live key's counters at recording time; the host's own (`headers`) go out instead. A
 * status without a body (204, 205, 304: load.ts refuses one recorded with a body) goes out with
 * neither body nor length.
 */
import type { Context, Env, MiddlewareHandler } from 'hono';
import { BASE_PATH, NO_BODY_STATUSES } from '../contract/index.js';
import { splitUrl } from '../net/request-url.js';
import { canonicalRequest, recordingKey } from './format.js';
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

/** Header names replay drops from a recording (the host puts its own on the answer). */
const LIVE_ONLY_HEADERS = new Set(['x-ratelimit-limit', 'x-ratelimit-remaining']);

export interface ReplayOptions<E extends Env> {
  /** Headers the host adds to every replayed answer (the mock: its own rate-limit counters). */
  headers?: (c: Context<E>) => Record<string, string> | undefined;
  /**
   * A POST body the host has already read (the mock reads and checks it before a recorded answer
   * is looked up, so the stream is spent); without it the body is read here.
   */
  bodyRead?: (c: Context<E>) => Uint8Array | undefined;
}

export function createReplayMiddleware<E extends Env = Env>(
  dir: string,
  options: ReplayOptions<E> = {},
): MiddlewareHandler<E> {
  const recordings = loadRecordings(dir);
  return async function replayRecorded(c, next) {
    const where = pathBelowBase(c.req.url);
    if (!where || recordings.size === 0) return next();
    let body: Uint8Array | undefined;
    if (c.req.method === 'POST') {
      const length = Number(c.req.header('content-length') ?? Number.NaN);
      if (!(length <= MAX_MATCHED_BODY_BYTES)) return next();
      body = options.bodyRead?.(c) ?? new Uint8Array(await c.req.arrayBuffer());
    }
    const recording = recordings.get(
      recordingKey(canonicalRequest(c.req.method, where.rawPath, where.search, body)),
    );
    if (!recording) return next();
    const { status, headers } = recording.meta.response;
    const kept = Object.fromEntries(
      Object.entries(headers).filter(([name]) => !LIVE_ONLY_HEADERS.has(name)),
    );
    const common = {
      ...kept,
      ...options.headers?.(c),
      [REPLAYED_HEADER]: recording.meta.operationId,
    };
    if (NO_BODY_STATUSES.has(status)) return new Response(null, { status, headers: common });
    return new Response(recording.body.slice(), {
      status,
      headers: { ...common, 'content-length': String(recording.body.byteLength) },
    });
  };
}
