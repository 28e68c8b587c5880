/**
 * @module proxy/forward
 * One forwarded request, in named steps: route it to the document's operation, send it with our
 * key, take the live body (take-body.ts: JSON buffered within a cap, anything else streamed, both
 * scanned for the key), judge it (judge.ts), fold it into the profile and record it (when asked;
 * neither ever fails the answer), and answer with the live status, headers and body bytes (the
 * key scrubbed if the live side echoed it). Each step is a function of the proxy's parts, built
 * once per app (app.ts).
 */
import type { Context } from 'hono';
import {
  BASE_PATH,
  isJsonMediaType,
  mediaTypeOf,
  NO_BODY_STATUSES,
  type Operation,
  type OperationRouter,
  type Validators,
} from '../contract/index.js';
import { splitUrl } from '../net/request-url.js';
import type { Recorder, RecordInput } from '../recordings/index.js';
import type { SecretScrubber } from '../redaction.js';
import { errorAnswer } from './errors.js';
import { downstreamResponseHeaders, upstreamRequestHeaders } from './headers.js';
import type { createJudge } from './judge.js';
import type { ProxyOptions } from './options.js';
import type { ProfileWriter } from './profile-writer.js';
import type { ProxiedExchange, Reporter } from './report.js';
import { takeBody, type BodyFailure, type TakenBody } from './take-body.js';
import { callUpstream } from './upstream.js';

export const VIOLATIONS_HEADER = 'x-contract-violations';

/** What a forwarded request leaves for the access line written once it is answered. */
export type ProxyEnv = {
  Variables: { exchange: ProxiedExchange; outcome: { violations?: number } };
};

/** What every step uses; built once per app. */
export interface ProxyParts {
  options: ProxyOptions;
  validators: Validators;
  router: OperationRouter;
  scrubber: SecretScrubber;
  reporter: Reporter;
  judge: ReturnType<typeof createJudge>;
  recorder?: Recorder;
  profiler?: ProfileWriter;
}

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

/**
 * One forwarded request, in steps: route it, send it with our key, take the live body, judge
 * it, profile and record it (when asked), answer with the live status, headers and bytes (key
 * scrubbed).
 */
export async function forward(parts: ProxyParts, c: Context<ProxyEnv>): Promise<Response> {
  const { options, reporter, judge, scrubber } = parts;
  const route = routeOf(parts, c.req.method, c.req.url);
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
  if (!called.ok) return failUpstream(reporter, c, exchange, called);
  const upstream = called.response;
  exchange.status = upstream.status;

  const taken = await takeLiveBody(parts, route, upstream, exchange, called.timedOut);
  // The deadline covered the headers and any buffered body; a streamed body takes as long as it needs.
  called.release();
  if ('error' in taken) return failUpstream(reporter, c, exchange, taken);

  const verdict = judge(exchange, {
    operation: route.operation,
    below: route.below,
    method: route.method,
    status: upstream.status,
    headers: upstream.headers,
    body: taken.body,
  });
  if (route.operation)
    parts.profiler?.observe(route.operation, route, requestBody, upstream, verdict.body);
  const { headers, keyFound: keyInHeaders } = downstreamResponseHeaders(
    upstream.headers,
    scrubber,
    // Only a body passed on as the live side sent it keeps its length; a buffered one gets its own.
    { keepLength: taken.body.kind === 'streamed' || taken.body.kind === 'none' },
  );
  const keyEchoed = reportKeyEcho(reporter, exchange, taken.keyFound, keyInHeaders);
  if (
    parts.recorder &&
    route.operation &&
    verdict.body.kind === 'json' &&
    taken.payload instanceof Uint8Array
  )
    recordAnswer(reporter, parts.recorder, exchange, keyEchoed, {
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
function routeOf(parts: ProxyParts, method: string, requestUrl: string): Route {
  const { rawPath, search } = splitUrl(requestUrl);
  const below = rawPath.slice(BASE_PATH.length);
  const match = parts.router.match(method, below);
  return {
    method,
    // A method the path does not allow is forwarded all the same, unchecked: the live answer is what the client sees.
    operation: match && 'operation' in match ? match.operation : undefined,
    below,
    search,
    url: `${parts.options.upstream}${below}${search ? `?${search}` : ''}`,
  };
}

/** Buffers what the checker must read (JSON by media type or by the document), streams the rest. */
function takeLiveBody(
  parts: ProxyParts,
  route: Route,
  upstream: Response,
  exchange: ProxiedExchange,
  timedOut: () => boolean,
): Promise<TakenBody | BodyFailure> {
  const hasBody =
    route.method !== 'HEAD' && !NO_BODY_STATUSES.has(upstream.status) && upstream.body !== null;
  const declared =
    route.operation && parts.validators.responseFor(route.operation, upstream.status);
  const mediaType = mediaTypeOf(upstream.headers.get('content-type'));
  return takeBody(upstream, {
    hasBody,
    buffer: hasBody && (isJsonMediaType(mediaType) || declared?.jsonSchema !== undefined),
    maxJsonBytes: parts.options.maxJsonBytes,
    timeoutMs: parts.options.upstreamTimeoutMs,
    timedOut,
    scrubber: parts.scrubber,
    onKeyInStream: () =>
      parts.reporter.keyEchoed(
        exchange,
        'the live body streamed to the client contained the API key; the stream was cut before it',
      ),
  });
}

/** The live side failed (unreachable, too slow, broke off): logged, and answered by the proxy. */
function failUpstream(
  reporter: Reporter,
  c: Context<ProxyEnv>,
  exchange: ProxiedExchange,
  failure: { status: 502 | 504; error: string },
): Response {
  exchange.status = failure.status;
  reporter.upstreamError(exchange, failure.error);
  return errorAnswer(c, failure.status, failure.error);
}

/** Logs a key the live answer carried (already scrubbed or dropped); whether there was one. */
function reportKeyEcho(
  reporter: Reporter,
  exchange: ProxiedExchange,
  inBody: boolean,
  inHeaders: boolean,
): boolean {
  if (!inBody && !inHeaders) return false;
  reporter.keyEchoed(
    exchange,
    `the live response contained the API key (${[inBody && 'body', inHeaders && 'headers'].filter(Boolean).join(' and ')}); replaced with *** in the body, header dropped`,
  );
  return true;
}

/** Recording never stands between the live answer and the client: a failed write is logged (once) and counted. */
function recordAnswer(
  reporter: Reporter,
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
