/**
 * @module proxy/profile-writer
 * `--profile FILE`: the proxy folds every live answer it forwards into an observed profile
 * (src/evidence) and writes it every `intervalMs` when something changed, and once more on
 * shutdown, each time atomically (write a temporary file, rename it over the old one). The
 * profile never holds the key (it is passed as a secret) nor a personal-looking value of a field
 * the document does not declare. A write that fails is reported and retried at the next tick; it
 * never stands between the live answer and the client.
 */
import type { Operation, ResponseBody } from '../contract/index.js';
import type { ProxyOptions } from './options.js';
import type { Reporter } from './report.js';
import { undeclaredPatterns } from '../evidence/declared.js';
import { observe, paramsOf } from '../evidence/observe.js';
import { emptyProfile } from '../evidence/profile.js';
import { writeProfileAtomic } from '../evidence/write.js';

/** Default time between writes of a changed profile. */
export const DEFAULT_PROFILE_INTERVAL_MS = 60_000;

export interface ProfileWriterOptions {
  file: string;
  /** The key the proxy holds: a value carrying it is never kept. */
  apiKey: string;
  /** The live service's base URL: its origin is written as `{origin}` in values kept. */
  upstream?: string;
  intervalMs?: number;
  /** Told of a write that failed (the proxy logs it). */
  onError?: (error: Error) => void;
}

/** Where a forwarded request went, as the forwarder has it. */
export interface ForwardedRequest {
  method: string;
  /** Path below the base path, still encoded. */
  below: string;
  /** The query string without `?`. */
  search: string;
}

export interface ProfileWriter {
  /** One live answer: its status and headers from `upstream`, its body as the checker read it. */
  observe(
    operation: Operation,
    request: ForwardedRequest,
    requestBody: Uint8Array | undefined,
    upstream: Pick<Response, 'status' | 'headers'>,
    body: ResponseBody,
  ): void;
  /** Writes now if anything changed since the last write. */
  flush(): void;
  /** Stops the timer and writes what is left. */
  close(): void;
}

function jsonOf(bytes: Uint8Array | undefined): unknown {
  if (!bytes || bytes.byteLength === 0) return undefined;
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

export function createProfileWriter(options: ProfileWriterOptions): ProfileWriter {
  const profile = emptyProfile();
  const secrets = [options.apiKey];
  const origins = options.upstream ? [new URL(options.upstream).origin] : [];
  let dirty = false;

  function flush(): void {
    if (!dirty) return;
    try {
      writeProfileAtomic(options.file, profile, secrets);
      dirty = false;
    } catch (error) {
      options.onError?.(new Error(`profile not written: ${(error as Error).message}`));
    }
  }

  const timer = setInterval(flush, options.intervalMs ?? DEFAULT_PROFILE_INTERVAL_MS);
  timer.unref();

  return {
    observe(operation, request, requestBody, upstream, body) {
      try {
        fold(operation, request, requestBody, upstream, body);
      } catch (error) {
        // observe() leaves out (and counts) an answer too deep to fold; anything else is said, and the profile is still written.
        options.onError?.(new Error(`answer left out of the profile: ${(error as Error).message}`));
      }
    },
    flush,
    close() {
      clearInterval(timer);
      flush();
    },
  };

  function fold(
    operation: Operation,
    request: ForwardedRequest,
    requestBody: Uint8Array | undefined,
    upstream: Pick<Response, 'status' | 'headers'>,
    answer: ResponseBody,
  ): void {
    const query = [...new URLSearchParams(request.search).entries()];
    const body = answer.kind === 'json' ? answer.value : undefined;
    const sent = jsonOf(requestBody);
    observe(
      profile,
      {
        operationId: operation.operationId,
        method: request.method,
        path: request.below,
        query,
        params: paramsOf(query, sent),
        requestBody: sent,
        status: upstream.status,
        headers: upstream.headers,
        body,
        undeclared: () => undeclaredPatterns(operation, upstream.status, body),
      },
      { secrets, origins },
    );
    dirty = true;
  }
}

/** The proxy's writer when `--profile` was given; its failed writes go to the proxy's log. */
export function profileWriterFor(
  options: Pick<ProxyOptions, 'profileFile' | 'profileIntervalMs' | 'apiKey' | 'upstream'>,
  reporter: Pick<Reporter, 'proxyError'>,
): ProfileWriter | undefined {
  const file = options.profileFile;
  if (!file) return undefined;
  return createProfileWriter({
    file,
    apiKey: options.apiKey,
    upstream: options.upstream,
    intervalMs: options.profileIntervalMs,
    onError: (error) =>
      reporter.proxyError({
        method: '-',
        path: file,
        error: error.message,
      }),
  });
}
