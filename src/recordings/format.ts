/**
 * @module recordings/format
 * The recording format, shared by the recorder (the proxy's `--recordings`) and replay (the
 * mock's `--replay`). One recorded exchange (a recording) is two files under `<dir>/<operationId>/`:
 *   `<key>.json`       `{format, operationId, request: {method, path, query, bodySha256?},
 *                        response: {status, headers, bodyFile, bodySha256, bytes}, recordedAt}`
 *   `<key>.body.json`  the response body exactly as received (replayed byte for byte).
 * `<key>` is the SHA-1 of the canonical request: method, path below `/web-data/v1` with each
 * segment decoded and re-encoded one way, query pairs decoded and sorted, and for POST the hash
 * of the (re-serialised) JSON body. Only `content-type` and `x-ratelimit-*` headers are kept.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * The format tag every meta file carries. The value keeps the old word "fixture" on purpose: it is
 * written into files on disk, and recordings made before the rename must still load (DECISIONS 115).
 */
export const RECORDING_FORMAT = 'web-data-fixture/1';
export const RECORDED_HEADERS = ['content-type', 'x-ratelimit-limit', 'x-ratelimit-remaining'];
/** Largest body recorded or replayed: above the proxy's default JSON cap (10 MiB), below anything that strains memory. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** A meta file is a few hundred bytes; anything this large is not one. */
export const MAX_META_BYTES = 64 * 1024;
/** Every replayed body is held in memory: the whole directory is capped. */
export const MAX_TOTAL_BYTES = 256 * 1024 * 1024;
const META_SUFFIX = '.json';
const BODY_SUFFIX = '.body.json';

export interface CanonicalRequest {
  method: string;
  /** e.g. `/product-parts/LM358%23PBF` (below the base path). */
  path: string;
  /** Decoded name/value pairs, sorted by name then value. */
  query: [string, string][];
  /** SHA-256 of the canonical JSON request body (POST only). */
  bodySha256?: string;
}

export interface RecordingMeta {
  format: typeof RECORDING_FORMAT;
  operationId: string;
  request: CanonicalRequest;
  response: {
    status: number;
    headers: Record<string, string>;
    bodyFile: string;
    bodySha256: string;
    bytes: number;
  };
  recordedAt: string;
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function decodeLoosely(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** JSON bodies are compared by content, not whitespace; anything else by its bytes. */
function bodyDigest(body: Uint8Array): string {
  const text = Buffer.from(body).toString('utf8');
  try {
    return sha256(JSON.stringify(JSON.parse(text)));
  } catch {
    return sha256(body);
  }
}

/**
 * The request as the recording key sees it. `rawPath` is below the base path and still encoded;
 * HEAD is keyed as GET (it is answered from the GET recording, without the body).
 */
export function canonicalRequest(
  method: string,
  rawPath: string,
  search: string,
  body?: Uint8Array,
): CanonicalRequest {
  const upper = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const path = `/${rawPath
    .split('/')
    .filter((s) => s !== '')
    .map((s) => encodeURIComponent(decodeLoosely(s)))
    .join('/')}`;
  const text = search.startsWith('?') ? search.slice(1) : search;
  const query = text
    .split('&')
    .filter((part) => part !== '')
    .map((part): [string, string] => {
      const eq = part.indexOf('=');
      const [name, value] = eq === -1 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
      return [decodeLoosely(name.replace(/\+/g, ' ')), decodeLoosely(value.replace(/\+/g, ' '))];
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const canonical: CanonicalRequest = { method: upper, path, query };
  if (upper === 'POST' && body && body.byteLength > 0) canonical.bodySha256 = bodyDigest(body);
  return canonical;
}

export function recordingKey(request: CanonicalRequest): string {
  return createHash('sha1')
    .update(
      JSON.stringify([request.method, request.path, request.query, request.bodySha256 ?? null]),
    )
    .digest('hex');
}

export function recordingFiles(
  dir: string,
  operationId: string,
  key: string,
): { meta: string; body: string; bodyFile: string } {
  return {
    meta: join(dir, operationId, `${key}${META_SUFFIX}`),
    body: join(dir, operationId, `${key}${BODY_SUFFIX}`),
    bodyFile: `${key}${BODY_SUFFIX}`,
  };
}

/** Whether a file name is a recording's body file. */
export function isBodyFile(name: string): boolean {
  return name.endsWith(BODY_SUFFIX);
}

/** Whether a file name is a recording's meta file (not its body). */
export function isMetaFile(name: string): boolean {
  return name.endsWith(META_SUFFIX) && !name.endsWith(BODY_SUFFIX);
}
