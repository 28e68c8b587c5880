/**
 * @module proxy/app
 * `createProxyApp(options)`: a key-holding proxy in front of the live service, as a Hono app that
 * never listens. A request walks: count and log it (whatever its fate) -> Host check (DNS
 * rebinding) -> CORS (configured origins only) -> path check (no encoded separators or dot
 * segments) -> route to the document's operation -> forward with our key -> take the body
 * (take-body.ts: JSON buffered within a cap, anything else streamed, both scanned for the key) ->
 * judge it (judge.ts: validate, log and count findings) -> record it (when asked; a failed write
 * never fails the answer) -> answer with the live status, headers and body bytes (the key
 * scrubbed if the live side echoed it). Every answer the proxy gives itself is an `{error}`
 * (errors.ts).
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
} from '../contract/index.js';
import { HEALTH_PATH, healthResponse } from '../net/health.js';
import { splitUrl } from '../net/request-url.js';
import { createRecorder, type Recorder, type RecordInput } from '../recordings/index.js';
import { cors } from './cors.js';
import { errorAnswer } from './errors.js';
import { downstreamResponseHeaders, upstreamRequestHeaders } from './headers.js';
import { hostGuard } from './host-guard.js';
import { createJudge } from './judge.js';
import { createSecretScrubber } from '../redaction.js';
import { resolveProxyOptions, type ProxyInput, type ProxyOptions } from './options.js';
import { refuseUnsafePaths } from './path-guard.js';
import { Reporter, type ProxiedExchange } from './report.js';
import { profileWriterFor, type ProfileWriter } from './profile-writer.js';
import { takeBody, type BodyFailure, type TakenBody } from './take-body.js';
import { callUpstream } from './upstream.js';

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
type ProxyEnv = { Variables: { exchange: ProxiedExchange; outcome: { violations?: number } } };

/** `settings`, not `options`: Hono apps already have an `options()` route method. */
export type ProxyApp = Hono<ProxyEnv> & {
  reporter: Reporter;
  settings: ProxyOptions;
  /** `--profile`: closed (written a last time) when the proxy closes. */
  profiler?: ProfileWriter;
};

/** Where a forwarded request goes. */
interface Route {
  method: string;
  /** The document's operation; undefined when none matches (forwarded all the same, unchecked). */
  operation: Operation | undefined;
  /** The raw path below the base path. */
  below: string;
  search: string;
  /** The live URL. */
  url: string;
}

export async function createProxyApp(input: ProxyInput): Promise<ProxyApp> {
  const options = resolveProxyOptions(input);
  const contract = await loadContract({ release: options.apiVersion });
  const validators = createValidators(contract);
  // The live service's handling of `/products/` is unknown: rather check it as `listProducts` than not at all.
  const router = createOperationRouter(contract.operations, { emptySegments: 'skip' });
  const scrubber = createSecretScrubber(options.apiKey);
  const reporter = new Reporter({ log: options.log, scrubber, now: options.now });
  const judge = createJudge({
    validators,
    reporter,
    release: contract.release,
    maxJsonBytes: options.maxJsonBytes,
  });
  const recorder: Recorder | undefined = options.fixturesDir
    ? createRecorder({ dir: options.fixturesDir, now: options.now, secrets: [options.apiKey] })
    : undefined;

  const profiler = profileWriterFor(options, reporter);
  const app = new Hono<ProxyEnv>() as ProxyApp;
  app.reporter = reporter;
  app.settings = options;
  app.profiler = profiler;
  // First of all: a probe names the container by any address (so no Host check) and is not counted.
  app.get(HEALTH_PATH, () => healthResponse());
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
        errorAnswer(
          c,
          413,
          `request body larger than ${options.maxRequestBytes} bytes (proxy limit)`,
        ),
    }),
  );
  app.all(`${BASE_PATH}/*`, (c) => forward(c));
  app.notFound((c) =>
    errorAnswer(
      c,
      404,
      `the proxy forwards ${BASE_PATH}/* only; ${splitUrl(c.req.url).rawPath} is not under it`,
    ),
  );
  app.onError((error, c) => {
    reporter.proxyError({
      method: c.req.method,
      path: splitUrl(c.req.url).rawPath,
      error: error.message,
    });
    return errorAnswer(c, 500, 'proxy error (see the proxy log)');
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

  /**
   * One forwarded request, in steps: route it, send it with our key, take the live body, judge
   * it, record it (when asked), answer with the live status, headers and bytes (key scrubbed).
   */
  async function forward(c: Context<ProxyEnv>): Promise<Response> {
    const route = routeOf(c.req.method, c.req.url);
    const exchange: ProxiedExchange = {
      operation: route.operation?.operationId ?? null,
      method: route.method,
      url: route.url,
      status: 0,
    };
    c.set('exchange', exchange);
    const requestBody =
      route.method === 'GET' || route.method === 'HEAD'
        ? undefined
        : new Uint8Array(await c.req.arrayBuffer());

    const called = await callUpstream(
      route.url,
      {
        method: route.method,
        headers: upstreamRequestHeaders(c.req.raw.headers, options.apiKey),
        body: requestBody,
      },
      { fetch: options.fetch, timeoutMs: options.upstreamTimeoutMs },
    );
    if (!called.ok) return failUpstream(c, exchange, called);
    const upstream = called.response;
    exchange.status = upstream.status;

    const taken = await takeLiveBody(route, upstream, exchange, called.timedOut);
    // The deadline covered the headers and any buffered body; a streamed body takes as long as it needs.
    called.release();
    if ('error' in taken) return failUpstream(c, exchange, taken);

    const verdict = judge(exchange, {
      operation: route.operation,
      below: route.below,
      method: route.method,
      status: upstream.status,
      headers: upstream.headers,
      body: taken.body,
    });
    if (route.operation)
      profiler?.observe(route.operation, route, requestBody, upstream, verdict.body);
    const { headers, keyFound: keyInHeaders } = downstreamResponseHeaders(
      upstream.headers,
      scrubber,
      // Only a body passed on as the live side sent it keeps its length; a buffered one gets its own.
      { keepLength: taken.body.kind === 'streamed' || taken.body.kind === 'none' },
    );
    const keyEchoed = reportKeyEcho(exchange, taken.keyFound, keyInHeaders);
    if (
      recorder &&
      route.operation &&
      verdict.body.kind === 'json' &&
      taken.payload instanceof Uint8Array
    )
      recordAnswer(recorder, exchange, keyEchoed, {
        operation: route.operation,
        method: route.method,
        rawPath: route.below,
        search: route.search,
        requestBody,
        status: upstream.status,
        headers: upstream.headers,
        body: taken.payload,
        findings: verdict.findings,
      });
    // No count for a body we could not check: "0" would claim a clean bill it has not earned.
    if (options.signalViolations && route.operation && verdict.body.kind !== 'too-large')
      headers.set(VIOLATIONS_HEADER, String(verdict.broken));
    c.set('outcome', { violations: verdict.broken });
    return new Response(taken.payload, { status: upstream.status, headers });
  }

  /** Where a request goes: the document's operation (if any) and the live URL. */
  function routeOf(method: string, requestUrl: string): Route {
    const { rawPath, search } = splitUrl(requestUrl);
    const below = rawPath.slice(BASE_PATH.length);
    const match = router.match(method, below);
    return {
      method,
      // A method the path does not allow is forwarded all the same, unchecked: the live answer is what the client sees.
      operation: match && 'operation' in match ? match.operation : undefined,
      below,
      search,
      url: `${options.upstream}${below}${search ? `?${search}` : ''}`,
    };
  }

  /** Buffers what the checker must read (JSON by media type or by the document), streams the rest. */
  function takeLiveBody(
    route: Route,
    upstream: Response,
    exchange: ProxiedExchange,
    timedOut: () => boolean,
  ): Promise<TakenBody | BodyFailure> {
    const hasBody =
      route.method !== 'HEAD' && !NO_BODY_STATUSES.has(upstream.status) && upstream.body !== null;
    const declared = route.operation && validators.responseFor(route.operation, upstream.status);
    const mediaType = mediaTypeOf(upstream.headers.get('content-type'));
    return takeBody(upstream, {
      hasBody,
      buffer: hasBody && (isJsonMediaType(mediaType) || declared?.jsonSchema !== undefined),
      maxJsonBytes: options.maxJsonBytes,
      timeoutMs: options.upstreamTimeoutMs,
      timedOut,
      scrubber,
      onKeyInStream: () =>
        reporter.keyEchoed(
          exchange,
          'the live body streamed to the client contained the API key; the stream was cut before it',
        ),
    });
  }

  /** The live side failed (unreachable, too slow, broke off): logged, and answered by the proxy. */
  function failUpstream(
    c: Context<ProxyEnv>,
    exchange: ProxiedExchange,
    failure: { status: 502 | 504; error: string },
  ): Response {
    exchange.status = failure.status;
    reporter.upstreamError(exchange, failure.error);
    return errorAnswer(c, failure.status, failure.error);
  }

  /** Logs a key the live answer carried (already scrubbed or dropped); whether there was one. */
  function reportKeyEcho(exchange: ProxiedExchange, inBody: boolean, inHeaders: boolean): boolean {
    if (!inBody && !inHeaders) return false;
    reporter.keyEchoed(
      exchange,
      `the live response contained the API key (${[inBody && 'body', inHeaders && 'headers'].filter(Boolean).join(' and ')}); replaced with *** in the body, header dropped`,
    );
    return true;
  }

  /** Recording never stands between the live answer and the client: a failed write is logged (once) and counted. */
  function recordAnswer(
    into: Recorder,
    exchange: ProxiedExchange,
    keyEchoed: boolean,
    input: RecordInput,
  ): void {
    if (keyEchoed)
      return reporter.notRecorded(
        exchange,
        'the response echoed the API key; a flagged response is never recorded',
        'warning',
      );
    const outcome = into.record(input);
    if (outcome.kind === 'written') reporter.recorded(exchange, outcome.file);
    else if (outcome.kind === 'skipped')
      reporter.notRecorded(exchange, outcome.reason, outcome.severity);
    else if (outcome.kind === 'full') reporter.recordingFull(exchange, outcome.reason);
    else reporter.recordFailed(exchange, outcome.error);
  }

  return app;
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
