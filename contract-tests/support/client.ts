/**
 * @module support/client
 * The suite's only way to reach the target: fetch with a timeout, bounded concurrency, a request
 * budget, polite handling of 429 (waits `Retry-After`, then backs off) and of a draining
 * `x-ratelimit-remaining`, and a curl line for every request with the key left as a variable.
 */
import { isJsonMediaType, mediaTypeOf } from '../../src/contract/index.js';

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

export interface Exchange {
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
  fetch?: typeof fetch;
  /** Injected so tests never sleep for real. */
  sleep?: (ms: number) => Promise<void>;
}

export interface Client {
  readonly baseUrl: string;
  send(spec: RequestSpec): Promise<Exchange>;
  /** Requests sent so far (retries included). */
  readonly sent: number;
}

/** The variable each key is shown as in curl lines. */
const KEY_VARIABLES: Record<Auth, string> = { main: '$API_KEY', restricted: '$RESTRICTED_API_KEY', 'rate-limit': '$RATE_LIMIT_API_KEY', invalid: '', none: '' };
/** Not a secret: a key no service should accept. */
export const INVALID_KEY = 'contract-suite-invalid-key-0000';
const MAX_429_RETRIES = 3;
const FIRST_BACKOFF_MS = 1_000;
const MS_PER_SECOND = 1_000;

export class TargetError extends Error {}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The full URL of a request spec. */
export function urlOf(baseUrl: string, spec: RequestSpec): string {
  const base = spec.url ?? `${baseUrl}${spec.path ?? ''}`;
  if (!spec.query || spec.query.length === 0) return base;
  const qs = spec.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
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
  for (const [name, value] of Object.entries(spec.headers ?? {})) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (body !== undefined) parts.push(`-H 'content-type: application/json' --data-binary ${quote(body)}`);
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

export function createClient(options: ClientOptions): Client {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? realSleep;
  const slots = semaphore(options.concurrency);
  // One at a time once the target says few requests remain, so the suite never overdraws the window.
  const single = semaphore(1);
  let sent = 0;
  let remaining: number | undefined;

  async function once(spec: RequestSpec, url: string, body: string | undefined): Promise<Response> {
    if (sent >= options.maxRequests) {
      throw new TargetError(`Request budget exhausted (CONTRACT_MAX_REQUESTS=${options.maxRequests}); ${spec.method} ${url} not sent`);
    }
    sent++;
    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    const auth = spec.auth ?? 'main';
    if (auth === 'invalid') headers['x-api-key'] = INVALID_KEY;
    else if (auth !== 'none') {
      const key = options.keys[auth];
      if (!key) throw new TargetError(`No key configured for "${auth}" requests`);
      headers['x-api-key'] = key;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await doFetch(url, { method: spec.method, headers, body, signal: AbortSignal.timeout(options.timeoutMs), redirect: 'manual' });
    } catch (error) {
      const why = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') ? `no answer within ${options.timeoutMs} ms (CONTRACT_TIMEOUT_MS)` : String((error as Error).cause ?? error);
      throw new TargetError(`${spec.method} ${url} failed: ${why}`);
    }
  }

  async function send(spec: RequestSpec): Promise<Exchange> {
    const url = urlOf(options.baseUrl, spec);
    const body = spec.rawBody ?? (spec.body === undefined ? undefined : JSON.stringify(spec.body));
    const lowOnQuota = (spec.auth ?? 'main') === 'main' && remaining !== undefined && remaining <= options.concurrency;
    await slots.acquire();
    if (lowOnQuota) await single.acquire();
    try {
      let retries = 0;
      let backoff = FIRST_BACKOFF_MS;
      for (;;) {
        const response = await once(spec, url, body);
        const raw = spec.method === 'HEAD' ? new Uint8Array(0) : new Uint8Array(await response.arrayBuffer());
        const left = Number(response.headers.get('x-ratelimit-remaining'));
        if ((spec.auth ?? 'main') === 'main' && response.headers.has('x-ratelimit-remaining') && Number.isFinite(left)) remaining = left;
        if (response.status === 429 && spec.retryOn429 !== false && retries < MAX_429_RETRIES) {
          const header = Number(response.headers.get('retry-after'));
          const waitMs = Number.isFinite(header) && header >= 0 ? header * MS_PER_SECOND : backoff;
          if (waitMs > options.maxRetryWaitMs) {
            throw new TargetError(`${spec.method} ${url}: 429 asks to wait ${waitMs} ms, more than CONTRACT_MAX_RETRY_WAIT_MS=${options.maxRetryWaitMs}`);
          }
          await sleep(Math.max(waitMs, backoff));
          backoff *= 2;
          retries++;
          continue;
        }
        const mediaType = mediaTypeOf(response.headers.get('content-type'));
        // Binary downloads keep only their length; text is decoded for JSON and text types.
        const text = isJsonMediaType(mediaType) || mediaType.startsWith('text/') ? new TextDecoder().decode(raw) : '';
        let json: unknown;
        let jsonError: string | undefined;
        if (text !== '' && isJsonMediaType(mediaType)) {
          try {
            json = JSON.parse(text);
          } catch (error) {
            jsonError = (error as Error).message;
          }
        }
        return { spec, url, status: response.status, headers: response.headers, mediaType, text, bytes: raw.byteLength, json, jsonError, curl: curlOf(url, spec, body), retries };
      }
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
