/**
 * @module support/client
 * The suite's only way to reach the target: fetch with a timeout (headers and body), a bounded body
 * (size read as it streams, JSON depth scanned before parsing), bounded concurrency, a request
 * budget, polite handling of 429 (waits `Retry-After` or the body's `retry_after`, else backs off,
 * for as long as the wait fits `CONTRACT_MAX_RETRY_WAIT_MS`) and of a draining
 * `x-ratelimit-remaining`, and a curl line for every request with the key left as a variable.
 */
import { decodeUtf8, isJsonMediaType, mediaTypeOf } from '../../contract/index.js';
import { jsonDepthExceeds } from './json-depth.js';

/** Which key a request carries. `invalid` is a fixed non-secret string; `none` sends no header. */
export type Auth = 'main' | 'restricted' | 'rate-limit' | 'invalid' | 'none';

export interface RequestSpec {
  operationId: string;
  method: 'GET' | 'POST' | 'HEAD';
  /** Path below the base URL, already percent-encoded (`/product-parts/AB%23C`). */
  path?: string;
  /** An absolute URL instead of `path` (hrefs found in bodies). */
  url?: string;
  query?: [string, string][];
  /** Serialized as JSON unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string;
  auth?: Auth;
  headers?: Record<string, string>;
  /** Wait and retry on 429 (default). Off when a 429 is the point of the request. */
  retryOn429?: boolean;
}

/** One request the suite sent to the target, and the answer it got. */
export interface TargetExchange {
  spec: RequestSpec;
  url: string;
  status: number;
  headers: Headers;
  /** Media type without parameters, lower case; '' when absent. */
  mediaType: string;
  text: string;
  bytes: number;
  /** Parsed JSON when the body is JSON, else undefined. */
  json?: unknown;
  jsonError?: string;
  /** A JSON body whose bytes are not valid UTF-8 (decoded as U+FFFD there): why, for a finding. */
  encodingError?: string;
  curl: string;
  /** How many 429s were waited out before this answer. */
  retries: number;
}

export interface ClientOptions {
  baseUrl: string;
  keys: Partial<Record<Auth, string>>;
  timeoutMs: number;
  concurrency: number;
  maxRequests: number;
  maxRetryWaitMs: number;
  /** Largest body read; a larger one ends the request with a `TargetError` naming URL and size. */
  maxBodyBytes: number;
  /** Deepest JSON nesting parsed; deeper bodies are refused before parsing. */
  maxJsonDepth: number;
  fetch?: typeof fetch;
  /** Injected so tests never sleep for real. */
  sleep?: (ms: number) => Promise<void>;
  /** Told of every answer the suite receives (the observed profile reads them). */
  onExchange?: (exchange: TargetExchange) => void;
}

export interface Client {
  readonly baseUrl: string;
  send(spec: RequestSpec): Promise<TargetExchange>;
  /** Requests sent so far (retries included). */
  readonly sent: number;
}

/** The variable each key is shown as in curl lines. */
const KEY_VARIABLES: Record<Auth, string> = {
  main: '$API_KEY',
  restricted: '$RESTRICTED_API_KEY',
  'rate-limit': '$RATE_LIMIT_API_KEY',
  invalid: '',
  none: '',
};
/** Not a secret: a key no service should accept. */
export const INVALID_KEY = 'contract-suite-invalid-key-0000';
const FIRST_BACKOFF_MS = 1_000;
const MS_PER_SECOND = 1_000;

/** The target could not be asked or did not answer within the suite's bounds; names the URL. */
export class TargetError extends Error {
  override name = 'TargetError';
}

/** Seconds to wait after a 429: the `Retry-After` header (seconds), else the body's `retry_after`. */
export function retryAfterSeconds(headers: Headers, body: unknown): number | undefined {
  const header = headers.get('retry-after');
  if (header !== null && /^\s*\d+\s*$/.test(header)) return Number(header);
  const field =
    body !== null && typeof body === 'object'
      ? (body as Record<string, unknown>).retry_after
      : undefined;
  return typeof field === 'number' && Number.isFinite(field) && field >= 0 ? field : undefined;
}

/**
 * Reads a body chunk by chunk, refusing to hold more than `maxBytes` (checked against
 * `content-length` first, then as bytes arrive). The fetch's abort signal bounds the time.
 */
async function readBounded(
  response: Response,
  maxBytes: number,
  describe: () => string,
): Promise<Uint8Array> {
  const announced = Number(response.headers.get('content-length'));
  if (Number.isFinite(announced) && announced > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new TargetError(
      `${describe()}: body of ${announced} bytes (content-length) exceeds CONTRACT_MAX_BODY_BYTES=${maxBytes}`,
    );
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new TargetError(
        `${describe()}: body exceeds CONTRACT_MAX_BODY_BYTES=${maxBytes} (more than ${size} bytes read, reading stopped)`,
      );
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

function whyFailed(error: unknown, timeoutMs: number, phase: string): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `${phase} not complete within ${timeoutMs} ms (CONTRACT_TIMEOUT_MS)`;
  return String((error as Error).cause ?? error);
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The full URL of a request spec. */
export function urlOf(baseUrl: string, spec: RequestSpec): string {
  const base = spec.url ?? `${baseUrl}${spec.path ?? ''}`;
  if (!spec.query || spec.query.length === 0) return base;
  const qs = spec.query
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return `${base}${base.includes('?') ? '&' : '?'}${qs}`;
}

/** A curl line that reproduces the request, with the key as a shell variable. */
export function curlOf(url: string, spec: RequestSpec, body: string | undefined): string {
  const auth = spec.auth ?? 'main';
  const parts = ['curl -sS -i'];
  if (spec.method === 'HEAD') parts.push('-I');
  else if (spec.method !== 'GET') parts.push(`-X ${spec.method}`);
  parts.push(quote(url));
  if (auth === 'invalid') parts.push(`-H ${quote(`x-api-key: ${INVALID_KEY}`)}`);
  else if (auth !== 'none') parts.push(`-H "x-api-key: ${KEY_VARIABLES[auth]}"`);
  for (const [name, value] of Object.entries(spec.headers ?? {}))
    parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (body !== undefined)
    parts.push(`-H 'content-type: application/json' --data-binary ${quote(body)}`);
  return parts.join(' ');
}

/** A counting semaphore: at most `size` holders at once, served in arrival order. */
function semaphore(size: number) {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    async acquire(): Promise<void> {
      if (free > 0) {
        free--;
        return;
      }
      await new Promise<void>((r) => waiting.push(r));
    },
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
  };
}

/** A request ready to send: its spec, its full URL and its body as sent. */
interface Outgoing {
  spec: RequestSpec;
  url: string;
  body: string | undefined;
}

/** The request's headers: JSON accepted, the key its `auth` names, and the body's type. */
function requestHeaders(
  spec: RequestSpec,
  keys: ClientOptions['keys'],
  body: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
  const auth = spec.auth ?? 'main';
  if (auth === 'invalid') headers['x-api-key'] = INVALID_KEY;
  else if (auth !== 'none') {
    const key = keys[auth];
    if (!key) throw new TargetError(`No key configured for "${auth}" requests`);
    headers['x-api-key'] = key;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

/** One fetch, never following a redirect; a failure becomes a `TargetError` naming the URL. */
async function fetchOnce(
  doFetch: typeof fetch,
  request: Outgoing,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Response> {
  const { spec, url, body } = request;
  try {
    // One deadline for the headers and the whole body: a server that dribbles is cut off too.
    return await doFetch(url, {
      method: spec.method,
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    throw new TargetError(
      `${spec.method} ${url} failed: ${error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms (CONTRACT_TIMEOUT_MS)` : whyFailed(error, timeoutMs, 'answer')}`,
    );
  }
}

/** The body, bounded in size and (through the request's signal) in time. */
async function bodyOf(
  spec: RequestSpec,
  url: string,
  response: Response,
  bounds: Pick<ClientOptions, 'maxBodyBytes' | 'timeoutMs'>,
): Promise<Uint8Array> {
  if (spec.method === 'HEAD') return new Uint8Array(0);
  try {
    return await readBounded(
      response,
      bounds.maxBodyBytes,
      () => `${spec.method} ${url} -> ${response.status}`,
    );
  } catch (error) {
    if (error instanceof TargetError) throw error;
    throw new TargetError(
      `${spec.method} ${url} -> ${response.status}: reading the body failed: ${whyFailed(error, bounds.timeoutMs, 'body')}`,
    );
  }
}

/** JSON text parsed, refused before parsing when nested deeper than `maxJsonDepth`. */
function parse(
  spec: RequestSpec,
  url: string,
  status: number,
  text: string,
  maxJsonDepth: number,
): { json?: unknown; jsonError?: string } {
  if (jsonDepthExceeds(text, maxJsonDepth)) {
    throw new TargetError(
      `${spec.method} ${url} -> ${status}: JSON nested deeper than ${maxJsonDepth} levels (the suite's maximum JSON depth); not parsed`,
    );
  }
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    return { jsonError: (error as Error).message };
  }
}

/** What an answer's bytes say: its media type, its text and, for JSON, the parsed value. */
interface Decoded {
  mediaType: string;
  text: string;
  encodingError?: string;
  json?: unknown;
  jsonError?: string;
}

function decode(
  spec: RequestSpec,
  url: string,
  response: Response,
  raw: Uint8Array,
  maxJsonDepth: number,
): Decoded {
  const mediaType = mediaTypeOf(response.headers.get('content-type'));
  // Binary downloads keep only their length; text is decoded for JSON and text types.
  const { text, encodingError } =
    isJsonMediaType(mediaType) || mediaType.startsWith('text/')
      ? decodeUtf8(raw)
      : { text: '', encodingError: undefined };
  const { json, jsonError } =
    text !== '' && isJsonMediaType(mediaType)
      ? parse(spec, url, response.status, text, maxJsonDepth)
      : {};
  return { mediaType, text, encodingError, json, jsonError };
}

/** The 429s one request has waited out so far. */
interface Retrying {
  retries: number;
  /** Milliseconds waited in all. */
  waited: number;
  /** The next wait when the target names none. */
  backoff: number;
}

/**
 * How long to wait before retrying a 429: what the target asks, else the backoff. Waiting goes on as
 * long as the waits together fit the budget; only then is the 429 an answer (a `TargetError`).
 */
function retryWaitMs(
  spec: RequestSpec,
  url: string,
  answer: { headers: Headers; json: unknown },
  retrying: Retrying,
  maxRetryWaitMs: number,
): number {
  const announced = retryAfterSeconds(answer.headers, answer.json);
  const waitMs = announced !== undefined ? announced * MS_PER_SECOND : retrying.backoff;
  if (retrying.waited + waitMs > maxRetryWaitMs) {
    throw new TargetError(
      `${spec.method} ${url}: still 429 after ${retrying.retries} retries; the next wait (${waitMs} ms) would exceed CONTRACT_MAX_RETRY_WAIT_MS=${maxRetryWaitMs}`,
    );
  }
  return waitMs;
}

/** How many requests the target says are left in the main key's window, when it says so. */
function remainingAfter(spec: RequestSpec, response: Response): number | undefined {
  const left = Number(response.headers.get('x-ratelimit-remaining'));
  return (spec.auth ?? 'main') === 'main' &&
    response.headers.has('x-ratelimit-remaining') &&
    Number.isFinite(left)
    ? left
    : undefined;
}

/** The exchange a check reads: the request, the answer decoded, and a curl line. */
function exchangeOf(
  request: Outgoing,
  response: Response,
  raw: Uint8Array,
  decoded: Decoded,
  retries: number,
): TargetExchange {
  const { spec, url, body } = request;
  const { mediaType, text, encodingError, json, jsonError } = decoded;
  return {
    spec,
    url,
    status: response.status,
    headers: response.headers,
    mediaType,
    text,
    bytes: raw.byteLength,
    json,
    jsonError,
    ...(encodingError && isJsonMediaType(mediaType) ? { encodingError } : {}),
    curl: curlOf(url, spec, body),
    retries,
  };
}

/** The client for one target: bounded, budgeted and polite to its rate limit. */
export function createClient(options: ClientOptions): Client {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? realSleep;
  const slots = semaphore(options.concurrency);
  // One at a time once the target says few requests remain, so the suite never overdraws the window.
  const single = semaphore(1);
  let sent = 0;
  let remaining: number | undefined;

  async function once(request: Outgoing): Promise<Response> {
    if (sent >= options.maxRequests) {
      throw new TargetError(
        `Request budget exhausted (CONTRACT_MAX_REQUESTS=${options.maxRequests}); ${request.spec.method} ${request.url} not sent`,
      );
    }
    sent++;
    const headers = requestHeaders(request.spec, options.keys, request.body);
    return fetchOnce(doFetch, request, headers, options.timeoutMs);
  }

  /** Sends until an answer that is not a 429 to wait out (or the wait budget is spent). */
  async function sendRetrying(request: Outgoing): Promise<TargetExchange> {
    const { spec, url } = request;
    const retrying: Retrying = { retries: 0, waited: 0, backoff: FIRST_BACKOFF_MS };
    for (;;) {
      const response = await once(request);
      const raw = await bodyOf(spec, url, response, options);
      remaining = remainingAfter(spec, response) ?? remaining;
      const decoded = decode(spec, url, response, raw, options.maxJsonDepth);
      if (response.status === 429 && spec.retryOn429 !== false) {
        const answer = { headers: response.headers, json: decoded.json };
        const waitMs = retryWaitMs(spec, url, answer, retrying, options.maxRetryWaitMs);
        await sleep(waitMs);
        retrying.waited += waitMs;
        retrying.backoff *= 2;
        retrying.retries++;
        continue;
      }
      const exchange = exchangeOf(request, response, raw, decoded, retrying.retries);
      options.onExchange?.(exchange);
      return exchange;
    }
  }

  async function send(spec: RequestSpec): Promise<TargetExchange> {
    const url = urlOf(options.baseUrl, spec);
    const body = spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    const lowOnQuota =
      (spec.auth ?? 'main') === 'main' &&
      remaining !== undefined &&
      remaining <= options.concurrency;
    await slots.acquire();
    if (lowOnQuota) await single.acquire();
    try {
      return await sendRetrying({ spec, url, body });
    } finally {
      if (lowOnQuota) single.release();
      slots.release();
    }
  }

  return {
    baseUrl: options.baseUrl,
    send,
    get sent() {
      return sent;
    },
  };
}
