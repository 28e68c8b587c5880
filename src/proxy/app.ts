/**
 * @module proxy/app
 * `createProxyApp(options)`: a key-holding proxy in front of the live service, as a Hono app that
 * never listens. A request walks: count and log it (whatever its fate) -> Host check (DNS
 * rebinding) -> CORS (configured origins only) -> path check (no encoded separators or dot
 * segments) -> route to the document's operation -> forward with our key -> buffer a JSON body
 * (bounded) or stream anything else (scanned for the key) -> validate against the document -> log
 * and count findings -> record (when asked; a failed write never fails the answer) -> answer with
 * the live status, headers and body bytes unchanged (the key scrubbed if the live side echoed it).
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import {
  BASE_PATH,
  createOperationRouter,
  createValidators,
  isJsonMediaType,
  loadContract,
  mediaTypeOf,
  NO_BODY_STATUSES,
  type Operation,
  type ResponseBody,
} from '../contract/index.js';
import { splitUrl } from '../net/request-url.js';
import { createRecorder, type Recorder, type RecordInput } from '../recordings/index.js';
import { checkLiveResponse, type Finding } from './check.js';
import { cors } from './cors.js';
import { downstreamResponseHeaders, upstreamRequestHeaders } from './headers.js';
import { hostGuard } from './host-guard.js';
import { createKeyScrubber } from './key-scrub.js';
import { resolveProxyOptions, type ProxyInput, type ProxyOptions } from './options.js';
import { refuseUnsafePaths } from './path-guard.js';
import { Reporter, type Exchange } from './report.js';
import { guardStream } from './stream-guard.js';
import { profileWriterFor, type ProfileWriter } from './profile-writer.js';
import { callUpstream, describeFetchError, readBounded } from './upstream.js';

export const VIOLATIONS_HEADER = 'x-contract-violations';
export const STATS_PATH = '/__proxy/stats';
/** What a page may read besides the CORS-safelisted headers. */
export const EXPOSED_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'retry-after',
  VIOLATIONS_HEADER,
  'content-disposition',
  'content-length',
];

/** What a forwarded request leaves for the access line written once it is answered. */
type ProxyEnv = { Variables: { exchange: Exchange; outcome: { violations?: number } } };

/** `settings`, not `options`: Hono apps already have an `options()` route method. */
export type ProxyApp = Hono<ProxyEnv> & {
  reporter: Reporter;
  settings: ProxyOptions;
  /** `--profile`: closed (written a last time) when the proxy closes. */
  profiler?: ProfileWriter;
};

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
  const scrubber = createKeyScrubber(options.apiKey);
  const reporter = new Reporter({ log: options.log, scrubber, now: options.now });
  const recorder: Recorder | undefined = options.fixturesDir
    ? createRecorder({ dir: options.fixturesDir, now: options.now })
    : undefined;

  const profiler = profileWriterFor(options, reporter);
  const app = new Hono<ProxyEnv>() as ProxyApp;
  app.reporter = reporter;
  app.settings = options;
  app.profiler = profiler;
  app.use('*', createMiddleware<ProxyEnv>(countEveryRequest));
  app.use('*', hostGuard({ allowedHosts: options.allowedHosts }));
  app.use('*', cors({ allowedOrigins: options.allowedOrigins, exposeHeaders: EXPOSED_HEADERS }));
  app.get(STATS_PATH, (c) => c.json(reporter.stats()));
  app.use('*', refuseUnsafePaths());
  app.use(
    `${BASE_PATH}/*`,
    bodyLimit({
      maxSize: options.maxRequestBytes,
      onError: (c) =>
        c.json(
          { error: `request body larger than ${options.maxRequestBytes} bytes (proxy limit)` },
          413,
        ),
    }),
  );
  app.all(`${BASE_PATH}/*`, (c) => forward(c));
  app.notFound((c) =>
    c.json(
      {
        error: `the proxy forwards ${BASE_PATH}/* only; ${splitUrl(c.req.url).rawPath} is not under it`,
      },
      404,
    ),
  );
  app.onError((error, c) => {
    reporter.proxyError({
      method: c.req.method,
      path: splitUrl(c.req.url).rawPath,
      error: error.message,
    });
    return c.json({ error: 'proxy error (see the proxy log)' }, 500);
  });

  /**
   * Counts every request and writes its access line once it is answered, whatever answered it:
   * the forwarder, a refusal (Host, origin, path, size) or the error handler. Reading the stats
   * is not counted.
   */
  async function countEveryRequest(c: Context<ProxyEnv>, next: () => Promise<void>): Promise<void> {
    const started = performance.now();
    await next();
    if (c.req.path === STATS_PATH && c.res.status === 200) return;
    const forwarded = c.get('exchange');
    const exchange = forwarded ?? {
      operation: null,
      method: c.req.method,
      url: splitUrl(c.req.url).rawPath,
      status: 0,
    };
    reporter.request(
      { ...exchange, status: c.res.status },
      { ms: elapsed(started), forwarded: forwarded !== undefined, ...c.get('outcome') },
    );
  }

  /** Buffers a JSON body within the cap (and the deadline), scrubbing the key; over the cap, a pass-through stream. */
  async function takeJsonBody(
    upstream: Response,
    timedOut: () => boolean,
  ): Promise<
    | { body: ResponseBody; payload: Payload; keyFound: boolean }
    | { error: string; status: 502 | 504 }
  > {
    let read;
    try {
      read = await readBounded(upstream.body, options.maxJsonBytes);
    } catch (error) {
      return timedOut()
        ? {
            status: 504,
            error: `upstream timed out after ${options.upstreamTimeoutMs} ms (while sending the body)`,
          }
        : {
            status: 502,
            error: `upstream connection broke while sending the body: ${describeFetchError(error)}`,
          };
    }
    if (!read.complete)
      return { body: { kind: 'too-large' }, payload: read.stream, keyFound: false };
    const { bytes, found } = scrubber.scrubBytes(read.bytes);
    return { body: parseBody(bytes), payload: bytes, keyFound: found };
  }

  async function forward(c: Context<ProxyEnv>): Promise<Response> {
    const method = c.req.method;
    const { rawPath, search } = splitUrl(c.req.url);
    const below = rawPath.slice(BASE_PATH.length);
    const match = router.match(method, below);
    // A method the path does not allow is forwarded all the same, unchecked: the live answer is what the client sees.
    const operation: Operation | undefined =
      match && 'operation' in match ? match.operation : undefined;
    const url = `${options.upstream}${below}${search ? `?${search}` : ''}`;
    const exchange: Exchange = {
      operation: operation?.operationId ?? null,
      method,
      url,
      status: 0,
    };
    c.set('exchange', exchange);
    const requestBody =
      method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await c.req.arrayBuffer());

    const result = await callUpstream(
      url,
      {
        method,
        headers: upstreamRequestHeaders(c.req.raw.headers, options.apiKey),
        body: requestBody,
      },
      { fetch: options.fetch, timeoutMs: options.upstreamTimeoutMs },
    );
    if (!result.ok) {
      exchange.status = result.status;
      reporter.upstreamError(exchange, result.error);
      return c.json({ error: result.error }, result.status);
    }
    const upstream = result.response;
    exchange.status = upstream.status;
    const mediaType = mediaTypeOf(upstream.headers.get('content-type'));
    const hasBody =
      method !== 'HEAD' && !NO_BODY_STATUSES.has(upstream.status) && upstream.body !== null;
    const declared = operation && validators.responseFor(operation, upstream.status);
    const buffer = hasBody && (isJsonMediaType(mediaType) || declared?.jsonSchema !== undefined);
    const streamCut = () =>
      reporter.keyEchoed(
        exchange,
        'the live body streamed to the client contained the API key; the stream was cut before it',
      );

    let body: ResponseBody = hasBody ? { kind: 'streamed' } : { kind: 'none' };
    let payload: Payload = hasBody ? upstream.body : null;
    let keyInBody = false;
    if (buffer) {
      const taken = await takeJsonBody(upstream, result.timedOut);
      if ('error' in taken) {
        exchange.status = taken.status;
        reporter.upstreamError(exchange, taken.error);
        return c.json({ error: taken.error }, taken.status);
      }
      ({ body, payload } = taken);
      keyInBody = taken.keyFound;
      if (body.kind === 'too-large')
        reporter.unvalidated(
          exchange,
          `JSON body over ${options.maxJsonBytes} bytes; passed through unvalidated`,
        );
    }
    // The deadline covered the headers and any buffered body; a streamed body takes as long as it needs.
    result.release();
    if (payload instanceof ReadableStream) payload = guardStream(payload, scrubber, streamCut);

    let findings: Finding[] = [];
    let broken = 0;
    if (operation) {
      try {
        findings = checkLiveResponse(validators, operation, {
          method,
          status: upstream.status,
          headers: upstream.headers,
          body,
        });
        broken = reporter.findings(exchange, findings);
      } catch (error) {
        // A body that defeats the checker (e.g. nested beyond the stack) is still the live answer: pass it on, say so.
        if (!(error instanceof RangeError)) throw error;
        body = { kind: 'too-large' };
        reporter.unvalidated(exchange, `body could not be checked: ${error.message}`);
      }
    } else {
      reporter.unvalidated(
        exchange,
        `no operation in the document (release ${contract.release}) matches ${method} ${below}`,
      );
    }

    if (operation)
      profiler?.observe({
        operation,
        method,
        rawPath: below,
        search,
        requestBody,
        status: upstream.status,
        headers: upstream.headers,
        body,
      });

    const { headers, keyFound: keyInHeaders } = downstreamResponseHeaders(
      upstream.headers,
      scrubber,
      { keepLength: !buffer },
    );
    const keyEchoed = keyInBody || keyInHeaders;
    if (keyEchoed) {
      reporter.keyEchoed(
        exchange,
        `the live response contained the API key (${[keyInBody && 'body', keyInHeaders && 'headers'].filter(Boolean).join(' and ')}); replaced with *** in the body, header dropped`,
      );
    }
    if (recorder && operation && body.kind === 'json' && payload instanceof Uint8Array) {
      if (keyEchoed)
        reporter.notRecorded(
          exchange,
          'the response echoed the API key; a flagged response is never recorded',
          'warning',
        );
      else
        record(recorder, exchange, {
          operation,
          method,
          rawPath: below,
          search,
          requestBody,
          status: upstream.status,
          headers: upstream.headers,
          body: payload,
          findings,
        });
    }
    // No count for a body we could not check: "0" would claim a clean bill it has not earned.
    if (options.signalViolations && operation && body.kind !== 'too-large')
      headers.set(VIOLATIONS_HEADER, String(broken));
    c.set('outcome', { violations: broken });
    return new Response(payload, { status: upstream.status, headers });
  }

  /** Recording never stands between the live answer and the client: a failed write is logged (once) and counted. */
  function record(into: Recorder, exchange: Exchange, input: RecordInput): void {
    const outcome = into.record(input);
    if (outcome.kind === 'written') reporter.recorded(exchange, outcome.file);
    else if (outcome.kind === 'skipped')
      reporter.notRecorded(exchange, outcome.reason, outcome.severity);
    else reporter.recordFailed(exchange, outcome.error);
  }

  return app;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
