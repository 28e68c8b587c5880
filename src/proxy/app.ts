/**
 * @module proxy/app
 * `createProxyApp(options)`: a key-holding proxy in front of the live service, as a Hono app that
 * never listens. It builds its parts once (`buildParts`: the document's validators and router,
 * the key's scrubber, the reporter, the judge, the recorder and profile writer when asked) and
 * mounts the steps every request walks (`mountSteps`): count and log it (whatever its fate) ->
 * Host check (DNS rebinding) -> CORS (configured origins only) -> path check (no encoded
 * separators or dot segments) -> body size -> forward (forward.ts: route, send with our key, take
 * the body, judge, profile, record, answer). Every answer the proxy gives itself is an `{error}`
 * (errors.ts).
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import {
  BASE_PATH,
  createOperationRouter,
  createValidators,
  loadContract,
} from '../contract/index.js';
import { HEALTH_PATH, healthResponse } from '../net/health.js';
import { splitUrl } from '../net/request-url.js';
import { createRecorder } from '../recordings/index.js';
import { createSecretScrubber } from '../redaction.js';
import { cors } from './cors.js';
import { errorAnswer } from './errors.js';
import { forward, VIOLATIONS_HEADER, type ProxyEnv, type ProxyParts } from './forward.js';
import { hostGuard } from '../net/host-guard.js';
import { createJudge } from './judge.js';
import { resolveProxyOptions, type ProxyInput, type ProxyOptions } from './options.js';
import { refuseUnsafePaths } from './path-guard.js';
import { profileWriterFor, type ProfileWriter } from './profile-writer.js';
import { Reporter } from './report.js';

export { VIOLATIONS_HEADER } from './forward.js';
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

/** `settings`, not `options`: Hono apps already have an `options()` route method. */
export type ProxyApp = Hono<ProxyEnv> & {
  reporter: Reporter;
  settings: ProxyOptions;
  /** `--profile`: closed (written a last time) when the proxy closes. */
  profiler?: ProfileWriter;
};

export async function createProxyApp(input: ProxyInput): Promise<ProxyApp> {
  const parts = await buildParts(resolveProxyOptions(input));
  const app = new Hono<ProxyEnv>() as ProxyApp;
  app.reporter = parts.reporter;
  app.settings = parts.options;
  app.profiler = parts.profiler;
  mountSteps(app, parts);
  return app;
}

/** Everything a request needs, built once: the document's checks, the key's scrubber, the reporter, the writers asked for. */
async function buildParts(options: ProxyOptions): Promise<ProxyParts> {
  const contract = await loadContract({ release: options.apiVersion });
  const validators = createValidators(contract);
  const scrubber = createSecretScrubber(options.apiKey);
  const reporter = new Reporter({ log: options.log, scrubber, now: options.now });
  return {
    options,
    validators,
    // The live service's handling of `/products/` is unknown: rather check it as `listProducts` than not at all.
    router: createOperationRouter(contract.operations, { emptySegments: 'skip' }),
    scrubber,
    reporter,
    judge: createJudge({
      validators,
      reporter,
      release: contract.release,
      maxJsonBytes: options.maxJsonBytes,
    }),
    recorder: options.recordingsDir
      ? createRecorder({ dir: options.recordingsDir, now: options.now, secrets: [options.apiKey] })
      : undefined,
    profiler: profileWriterFor(options, reporter),
  };
}

/** The steps in the order a request meets them; the first that answers ends its walk. */
function mountSteps(app: Hono<ProxyEnv>, parts: ProxyParts): void {
  const { options, reporter } = parts;
  // First of all: a probe names the container by any address (so no Host check) and is not counted.
  app.get(HEALTH_PATH, () => healthResponse());
  app.use('*', countEveryRequest(reporter));
  app.use(
    '*',
    hostGuard({
      allowedHosts: options.allowedHosts,
      refuse: (c, shown) =>
        errorAnswer(
          c,
          403,
          `${shown} is not a name this proxy answers to (only loopback names, its own address and those given with --proxy-host; add a name with --proxy-host); refused to protect the key against DNS rebinding`,
        ),
    }),
  );
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
  app.all(`${BASE_PATH}/*`, (c) => forward(parts, c));
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
}

/**
 * Counts every request and writes its access line once it is answered, whatever answered it:
 * the forwarder, a refusal (Host, origin, path, size) or the error handler. Reading the stats
 * is not counted.
 */
function countEveryRequest(reporter: Reporter) {
  return createMiddleware<ProxyEnv>(async (c: Context<ProxyEnv>, next) => {
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
  });
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
