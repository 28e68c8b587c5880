/**
 * @module proxy/app
 * `createProxyApp(options)`: a key-holding proxy in front of the live service, as a Hono app that
 * never listens. A request walks: CORS (configured origins only) -> route to the document's
 * operation -> forward with our key -> buffer a JSON body (bounded) or stream anything else ->
 * validate against the document -> log and count findings -> record (when asked) -> answer with
 * the live status, headers and body bytes unchanged (the key scrubbed if the live side echoed it).
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { BASE_PATH, createOperationRouter, createValidators, isJsonMediaType, loadContract, mediaTypeOf, NO_BODY_STATUSES, type Operation, type ResponseBody } from '../contract/index.js';
import { checkLiveResponse, type Finding } from './check.js';
import { cors } from './cors.js';
import { downstreamResponseHeaders, upstreamRequestHeaders } from './headers.js';
import { resolveProxyOptions, type ProxyInput, type ProxyOptions } from './options.js';
import { createRecorder, type Recorder } from './recorder.js';
import { REDACTED, Reporter, type Exchange } from './report.js';
import { callUpstream, describeFetchError, readBounded } from './upstream.js';

export const VIOLATIONS_HEADER = 'x-contract-violations';
export const STATS_PATH = '/__proxy/stats';
/** What a page may read besides the CORS-safelisted headers. */
export const EXPOSED_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'retry-after', VIOLATIONS_HEADER, 'content-disposition', 'content-length'];

/** `settings`, not `options`: Hono apps already have an `options()` route method. */
export type ProxyApp = Hono & { reporter: Reporter; settings: ProxyOptions };

/** Path below the base path and query, both still percent-encoded, from a request URL. */
function splitRequestUrl(url: string): { rawPath: string; search: string } {
  const pathStart = url.indexOf('/', url.indexOf('://') + 3);
  const queryStart = url.indexOf('?', pathStart);
  return {
    rawPath: queryStart === -1 ? url.slice(pathStart) : url.slice(pathStart, queryStart),
    search: queryStart === -1 ? '' : url.slice(queryStart + 1),
  };
}

/** Replaces the key wherever the live side echoed it in a body we hold; reports whether it did. */
function scrubKey(bytes: Uint8Array<ArrayBuffer>, apiKey: string): { bytes: Uint8Array<ArrayBuffer>; scrubbed: boolean } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.indexOf(apiKey) === -1) return { bytes, scrubbed: false };
  return { bytes: new Uint8Array(Buffer.from(buffer.toString('utf8').split(apiKey).join(REDACTED))), scrubbed: true };
}

function parseBody(bytes: Uint8Array): ResponseBody {
  const text = Buffer.from(bytes).toString('utf8');
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'invalid-json', text };
  }
}

type Payload = Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | null;

export async function createProxyApp(input: ProxyInput): Promise<ProxyApp> {
  const options = resolveProxyOptions(input);
  const contract = await loadContract({ release: options.apiVersion });
  const validators = createValidators(contract);
  // The live service's handling of `/products/` is unknown: rather check it as `listProducts` than not at all.
  const router = createOperationRouter(contract.operations, { emptySegments: 'skip' });
  const reporter = new Reporter({ log: options.log, secret: options.apiKey, now: options.now });
  const recorder: Recorder | undefined = options.fixturesDir ? createRecorder({ dir: options.fixturesDir, reporter, now: options.now }) : undefined;

  const app = new Hono() as ProxyApp;
  app.reporter = reporter;
  app.settings = options;
  app.use('*', cors({ allowedOrigins: options.allowedOrigins, exposeHeaders: EXPOSED_HEADERS }));
  app.get(STATS_PATH, (c) => c.json(reporter.stats()));
  app.use(
    `${BASE_PATH}/*`,
    bodyLimit({ maxSize: options.maxRequestBytes, onError: (c) => c.json({ error: `request body larger than ${options.maxRequestBytes} bytes (proxy limit)` }, 413) }),
  );
  app.all(`${BASE_PATH}/*`, (c) => forward(c));
  app.notFound((c) => c.json({ error: `the proxy forwards ${BASE_PATH}/* only; ${splitRequestUrl(c.req.url).rawPath} is not under it` }, 404));
  app.onError((error, c) => {
    reporter.emit({ event: 'proxy-error', severity: 'failure', method: c.req.method, path: splitRequestUrl(c.req.url).rawPath, error: error.message });
    return c.json({ error: 'proxy error (see the proxy log)' }, 500);
  });

  /** Buffers a JSON body within the cap (and the deadline), scrubbing the key; over the cap, a pass-through stream. */
  async function takeJsonBody(upstream: Response, timedOut: () => boolean): Promise<{ body: ResponseBody; payload: Payload; scrubbed: boolean } | { error: string; status: 502 | 504 }> {
    let read;
    try {
      read = await readBounded(upstream.body, options.maxJsonBytes);
    } catch (error) {
      return timedOut()
        ? { status: 504, error: `upstream timed out after ${options.upstreamTimeoutMs} ms (while sending the body)` }
        : { status: 502, error: `upstream connection broke while sending the body: ${describeFetchError(error)}` };
    }
    if (!read.complete) return { body: { kind: 'too-large' }, payload: read.stream, scrubbed: false };
    const { bytes, scrubbed } = scrubKey(read.bytes, options.apiKey);
    return { body: parseBody(bytes), payload: bytes, scrubbed };
  }

  async function forward(c: Context): Promise<Response> {
    const started = performance.now();
    const method = c.req.method;
    const { rawPath, search } = splitRequestUrl(c.req.url);
    const below = rawPath.slice(BASE_PATH.length);
    const match = router.match(method, below);
    // A method the path does not allow is forwarded all the same, unchecked: the live answer is what the client sees.
    const operation: Operation | undefined = match && 'operation' in match ? match.operation : undefined;
    const url = `${options.upstream}${below}${search ? `?${search}` : ''}`;
    const exchange: Exchange = { operation: operation?.operationId ?? null, method, url, status: 0 };
    const requestBody = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await c.req.arrayBuffer());

    const result = await callUpstream(url, { method, headers: upstreamRequestHeaders(c.req.raw.headers, options.apiKey), body: requestBody }, { fetch: options.fetch, timeoutMs: options.upstreamTimeoutMs });
    if (!result.ok) {
      exchange.status = result.status;
      reporter.upstreamError(exchange, result.error);
      reporter.request(exchange, { ms: elapsed(started) });
      return c.json({ error: result.error }, result.status);
    }
    const upstream = result.response;
    exchange.status = upstream.status;
    const mediaType = mediaTypeOf(upstream.headers.get('content-type'));
    const hasBody = method !== 'HEAD' && !NO_BODY_STATUSES.has(upstream.status) && upstream.body !== null;
    const declared = operation && validators.responseFor(operation, upstream.status);
    const buffer = hasBody && (isJsonMediaType(mediaType) || declared?.jsonSchema !== undefined);

    let body: ResponseBody = hasBody ? { kind: 'streamed' } : { kind: 'none' };
    let payload: Payload = hasBody ? upstream.body : null;
    if (buffer) {
      const taken = await takeJsonBody(upstream, result.timedOut);
      if ('error' in taken) {
        exchange.status = taken.status;
        reporter.upstreamError(exchange, taken.error);
        reporter.request(exchange, { ms: elapsed(started) });
        return c.json({ error: taken.error }, taken.status);
      }
      ({ body, payload } = taken);
      if (taken.scrubbed) reporter.emit({ event: 'key-echoed', severity: 'failure', ...exchange, message: 'the live response contained the API key; replaced with *** before passing it on' });
      if (body.kind === 'too-large') reporter.unvalidated(exchange, `JSON body over ${options.maxJsonBytes} bytes; passed through unvalidated`);
    }
    // The deadline covered the headers and any buffered body; a streamed body takes as long as it needs.
    result.release();

    let findings: Finding[] = [];
    let broken = 0;
    if (operation) {
      try {
        findings = checkLiveResponse(validators, operation, { method, status: upstream.status, headers: upstream.headers, body });
        broken = reporter.findings(exchange, findings);
      } catch (error) {
        // A body that defeats the checker (e.g. nested beyond the stack) is still the live answer: pass it on, say so.
        if (!(error instanceof RangeError)) throw error;
        body = { kind: 'too-large' };
        reporter.unvalidated(exchange, `body could not be checked: ${error.message}`);
      }
    } else {
      reporter.unvalidated(exchange, `no operation in the document (release ${contract.release}) matches ${method} ${below}`);
    }
    if (recorder && operation && body.kind === 'json' && payload instanceof Uint8Array) {
      recorder.record(exchange, { operation, method, rawPath: below, search, requestBody, status: upstream.status, headers: upstream.headers, body: payload, findings });
    }

    const headers = downstreamResponseHeaders(upstream.headers, options.apiKey, { keepLength: !buffer });
    // No count for a body we could not check: "0" would claim a clean bill it has not earned.
    if (options.signalViolations && operation && body.kind !== 'too-large') headers.set(VIOLATIONS_HEADER, String(broken));
    reporter.request(exchange, { ms: elapsed(started), violations: broken });
    return new Response(payload, { status: upstream.status, headers });
  }

  return app;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
