/**
 * @module mount
 * The second half of `createApp`: the routes, on an app built from the state (mock-state.ts), in
 * the order a request meets them: the health probe, the request log, the examples, the document
 * and `/docs`, the QA controls, then the API's operations and the 404/405 answers
 * (operation-routes.ts).
 */
import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import { readSpecText, renderKindsTable, UNRELEASED } from '../contract/index.js';
import { HEALTH_PATH, healthResponse } from '../net/health.js';
import { sharedSecretsScrubber, type SecretScrubber } from '../redaction.js';
import type { DocsOptions } from './docs-page/docs.js';
import type { AppEnv } from './env.js';
import { EXAMPLES_PATH } from './examples.js';
import { requestLog } from './pipeline/request-log.js';
import type { MockParts } from './mock-state.js';
import { mountOperations } from './pipeline/operation-routes.js';
import { ADMIN_PREFIX, adminRoutes, keyNameOf } from './admin/admin.js';
import { sampleAnswerOf } from './stubs/sample-answer.js';
import { storedEntryReaders } from './admin/stored-entries.js';
import { withScopeKeysBlanked } from './scopes/scope-key.js';

/** Shortest admin token the journal and the log look for (a shorter one only guards tests on loopback). */
const MIN_REDACTED_TOKEN_CHARS = 8;

/**
 * `routeScoped`: the root's step that hands a scope's requests and controls to the scope's own app
 * (scopes/routing.ts), before this app's request log; a scope's app has none.
 */
export function mountRoutes(
  app: Hono<AppEnv>,
  parts: MockParts,
  routeScoped?: MiddlewareHandler<AppEnv>,
): void {
  const { state, examples } = parts;
  const { options, contract, keys, clock, faults, stores, apis, records } = state;
  // Before the request log: an orchestrator's probe every few seconds must not fill the journal.
  app.get(HEALTH_PATH, () => healthResponse());
  // A scope's requests and controls go to its own app, with its own request log (scopes/).
  if (routeScoped) app.use('*', routeScoped);
  const scrubber = scrubberOf(keys.secrets, options.adminToken);
  const isSecret = (value: string) => scrubber.foundIn(value);
  /** Each demo key's purpose by its name (`demo-unlimited` -> `fullAccess`), for the journal. */
  const purposeByName = new Map<string, string>();
  for (const [purpose, name] of state.keyNamesByPurpose ?? [])
    if (!purposeByName.has(name)) purposeByName.set(name, purpose);
  app.use(
    '*',
    requestLog({
      store: stores.journal,
      epoch: () => parts.journal.epoch,
      now: () => clock.now(),
      instance: options.instanceId,
      log: options.log,
      scrubber,
      keyPurpose: (name) => purposeByName.get(name),
      journaled: (rawPath) => !isOwnPage(rawPath),
    }),
  );
  // Inputs that work on this very dataset and keys (no key needed, like the document itself).
  const examplesText = JSON.stringify(examples, null, 2);
  app.get(EXAMPLES_PATH, (c) =>
    c.body(examplesText, 200, { 'content-type': 'application/json; charset=utf-8' }),
  );
  mountDocsOnDemand(app, (stringifyYaml) => ({
    specText: () =>
      contract.release === UNRELEASED ? readSpecText() : stringifyYaml(contract.sourceDocument),
    apiBaseUrl: `${options.origin}${apis[0].basePath}`,
    demoKey: examples.keys.byPurpose.fullAccess?.key,
    examples: examples.operations,
    kindsOfFact: () => renderKindsTable(contract),
  }));
  const sampleAnswer = sampleAnswerOf({
    api: () => records.served(apis[0]),
    validators: state.validators,
    examples: examples.operations,
    origin: options.origin,
  });
  // What a shared store reads back is read as the admin API reads it (admin/stored-entries.ts).
  stores.readEntriesWith(
    storedEntryReaders({
      contract,
      validators: state.validators,
      keyNameOf: (value) => keyNameOf(state, value),
      sampleAnswer,
    }),
  );
  if (options.adminToken)
    app.route(
      ADMIN_PREFIX,
      adminRoutes({
        token: options.adminToken,
        state,
        plan: faults,
        store: stores,
        records,
        tiers: parts.tiers,
        sampleAnswer,
        attempts: parts.adminAttempts,
      }),
    );
  mountOperations(app, parts, isSecret);
}

/**
 * The one way to find a secret (src/redaction.ts): every key, and the admin token when it is long
 * enough to tell from ordinary text (a test's `qa` would blank every "aqua"; DECISIONS.md). A
 * scope's key is found by its form: the root and each scope know no other scope's secret.
 */
function scrubberOf(secrets: readonly string[], adminToken = ''): SecretScrubber {
  return withScopeKeysBlanked(
    sharedSecretsScrubber([
      ...secrets,
      ...(adminToken.length >= MIN_REDACTED_TOKEN_CHARS ? [adminToken] : []),
    ]),
  );
}

/** Where docs.ts registers its routes (the document as YAML and JSON, the page and its files). */
export const DOCS_ROUTES = ['/openapi.yaml', '/openapi.json', '/docs', '/docs/*'] as const;

/**
 * The mock's own pages (the examples, the document, `/docs`): logged, not journaled. The journal
 * holds what a client asked of the API; the library reads `/examples.json` at start, and that read
 * must not take a place in a test's journal window.
 */
function isOwnPage(rawPath: string): boolean {
  return (
    rawPath === EXAMPLES_PATH ||
    DOCS_ROUTES.some((route) =>
      route.endsWith('/*') ? rawPath.startsWith(route.slice(0, -1)) : rawPath === route,
    )
  );
}

/**
 * The document and `/docs`, built on their first request: docs.ts and the yaml module (a third
 * of the modules a start loaded) are not needed to answer the API. A path among DOCS_ROUTES that
 * docs.ts does not serve gets the app's own 404.
 */
function mountDocsOnDemand(
  app: Hono<AppEnv>,
  docsOptions: (stringifyYaml: (value: unknown) => string) => DocsOptions,
): void {
  const unrouted = new WeakSet<Response>();
  let docs: Promise<Hono<AppEnv>> | undefined;
  const load = async () => {
    const [{ mountDocs }, { stringify }] = await Promise.all([
      import('./docs-page/docs.js'),
      import('yaml'),
    ]);
    const routes = new Hono<AppEnv>();
    mountDocs(
      routes,
      docsOptions((value) => stringify(value)),
    );
    routes.notFound(() => {
      const response = new Response(null, { status: 404 });
      unrouted.add(response);
      return response;
    });
    return routes;
  };
  const serve: Handler<AppEnv> = async (c) => {
    const answer = await (docs ??= load()).then((routes) => routes.fetch(c.req.raw));
    return unrouted.has(answer) ? c.notFound() : answer;
  };
  for (const route of DOCS_ROUTES) app.get(route, serve);
}
