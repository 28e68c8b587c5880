/**
 * @module app
 * `createApp(options)`: the mock as a Hono app that never listens. Routes are registered from the
 * document's operation table (operationId -> handler), most specific path first, each behind the
 * same straight line: request log -> delivery -> (response self-check) -> auth -> rate limit -> QA scenario
 * -> input validation -> handler. A route's steps are registered as one handler (`chain.ts`).
 * Middleware factories are named for the step they make, as nouns: `requestLog`, `delivery`,
 * `responseCheck`, `auth`, `rateLimit`, `scenarios`, `bodyReader`, `inputValidation`.
 */
import { Hono, type Context, type ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { stringify as stringifyYaml } from 'yaml';
import {
  createValidators,
  loadContract,
  readSpecText,
  renderKindsTable,
  UNRELEASED,
  type Contract,
  type Operation,
  type Validators,
} from '../contract/index.js';
import { generateDataset } from '../fixtures/generate.js';
import { chain, type Step } from './chain.js';
import { AdjustableClock } from './clock.js';
import { basePathFor, createApiContext, type ApiContext } from './context.js';
import type { AppEnv } from './env.js';
import { apiError, ClientGoneError, CLIENT_CLOSED_REQUEST, messages } from './errors.js';
import { jsonResponse } from './response.js';
import { handlers } from './handlers/index.js';
import { stubs } from './qa/stubs.js';
import { sampleAnswerOf } from './qa/sample-answer.js';
import { loadKeys, type KeyStore } from './keys.js';
import { auth } from './middleware/auth.js';
import { delivery } from './middleware/delivery.js';
import { rateLimit } from './middleware/rate-limit.js';
import { bodyReader } from './middleware/read-body.js';
import { Journal, requestLog } from './middleware/request-log.js';
import { responseCheck } from './middleware/response-check.js';
import { inputValidation } from './middleware/validate.js';
import { splitUrl } from './query-string.js';
import { resolveOptions, type AppOptions } from './options.js';
import { RateLimiter } from './rate-limiter.js';
import { byPathSpecificity, methodsByPath, toHonoPath } from './routes.js';
import { loadTiers, overrideTiers } from './tiers.js';
import { ADMIN_PREFIX, adminRoutes } from './qa/admin.js';
import { FaultPlan } from './qa/fault-plan.js';
import { scenarios } from './qa/scenarios.js';
import { mountDocs } from './docs.js';
import { buildExamples, EXAMPLES_PATH } from './examples.js';
import { createReplayMiddleware } from '../recordings/index.js';
import { HEALTH_PATH, healthResponse } from '../net/health.js';
import { MemoryStore } from '../state/memory.js';
import { RedisStore } from '../state/redis.js';
import type { StateStore } from '../state/store.js';

/** What the app is made of, for the CLI banner, admin endpoints and tests. */
export interface MockState {
  options: AppOptions;
  contract: Contract;
  validators: Validators;
  keys: KeyStore;
  limiter: RateLimiter;
  clock: AdjustableClock;
  journal: Journal;
  faults: FaultPlan;
  /** Where the mutable state lives: `limiter`, `faults`, `journal` and `clock` above, or Redis (src/state/). */
  store: StateStore;
  apis: ApiContext[];
  /** Each purpose's demo key name (`fullAccess` -> its name): a QA match may name a key by purpose. */
  keyNamesByPurpose?: ReadonlyMap<string, string>;
}

export type MockApp = Hono<AppEnv> & { state: MockState };

export async function createApp(partial: Partial<AppOptions> = {}): Promise<MockApp> {
  const options = resolveOptions(partial);
  const contract = await loadContract({ release: options.apiVersion });
  const unhandled = contract.operations.filter((op) => !handlers[op.operationId]);
  if (unhandled.length > 0)
    throw new Error(`no handler for: ${unhandled.map((op) => op.operationId).join(', ')}`);
  const validators = createValidators(contract);
  const tiers = overrideTiers(loadTiers(options.tiersFile), options.tierOverride);
  // Scopes name endpoint families: the document's tags (all of them, whichever release is served).
  const families = new Set((contract.document.tags ?? []).map((tag) => tag.name));
  const keys = loadKeys(options.keysFile, {
    tiers: new Set(tiers.keys()),
    families: families.size > 0 ? families : undefined,
  });
  const clock = new AdjustableClock(options.clock);
  const limiter = new RateLimiter(tiers, clock);
  const journal = new Journal();
  const faults = new FaultPlan(options.faults);
  const local = new MemoryStore({ limiter, plan: faults, journal, clock });
  const store: StateStore = options.stateUrl
    ? await RedisStore.connect(
        options.stateUrl,
        { local, tiers, clock },
        { ...options.stateOptions, instanceId: options.instanceId },
      )
    : local;
  const apis = options.environments.map((environment) => {
    const basePath = basePathFor(environment, options.environments);
    const dataset =
      options.datasets[environment] ??
      generateDataset({
        seed: options.seed,
        scale: options.scale,
        baseUrl: `${options.origin}${basePath}`,
      });
    return createApiContext(environment, basePath, dataset, contract);
  });

  const app = new Hono<AppEnv>() as MockApp;
  app.state = { options, contract, validators, keys, limiter, clock, journal, faults, store, apis };
  // Before the request log: an orchestrator's probe every few seconds must not fill the journal.
  app.get(HEALTH_PATH, () => healthResponse());
  const isSecret = (value: string) => keys.isSecret(value);
  /** Each demo key's purpose by its name (`demo-unlimited` -> `fullAccess`), for the journal. */
  const purposeByName = new Map<string, string>();
  app.use(
    '*',
    requestLog({
      store,
      now: () => clock.now(),
      instance: options.instanceId,
      log: options.log,
      isSecret,
      shortestSecret: keys.shortestSecret,
      keyPurpose: (name) => purposeByName.get(name),
    }),
  );
  // Inputs that work on this very dataset and keys (no key needed, like the document itself).
  const examples = buildExamples({
    contract,
    api: apis[0],
    keys,
    tiers,
    seed: options.seed,
    scale: options.scale,
    now: clock.now(),
  });
  const examplesText = JSON.stringify(examples, null, 2);
  app.state.keyNamesByPurpose = new Map(
    Object.entries(examples.keys.byPurpose).flatMap(([purpose, key]) =>
      key ? [[purpose, key.name] as const] : [],
    ),
  );
  for (const [purpose, name] of app.state.keyNamesByPurpose)
    if (!purposeByName.has(name)) purposeByName.set(name, purpose);
  app.get(EXAMPLES_PATH, (c) =>
    c.body(examplesText, 200, { 'content-type': 'application/json; charset=utf-8' }),
  );
  mountDocs(app, {
    specText: () =>
      contract.release === UNRELEASED ? readSpecText() : stringifyYaml(contract.sourceDocument),
    apiBaseUrl: `${options.origin}${apis[0].basePath}`,
    demoKey: examples.keys.byPurpose.fullAccess?.key,
    examples: examples.operations,
    kindsOfFact: () => renderKindsTable(contract),
  });
  if (options.adminToken)
    app.route(
      ADMIN_PREFIX,
      adminRoutes({
        token: options.adminToken,
        state: app.state,
        plan: faults,
        store,
        sampleAnswer: sampleAnswerOf({
          api: apis[0],
          validators,
          examples: examples.operations,
          origin: options.origin,
        }),
      }),
    );

  const qa = scenarios({ plan: faults, store, validators, maxDurationMs: options.maxQaDurationMs });
  const pipeline: Step[] = [
    // Outermost: writes the body (cut or slowed when QA asked) and tells the rate limiter when it is done.
    delivery(),
    // Sees every response whole, before delivery cuts or slows it.
    ...(options.validateResponses ? [responseCheck({ validators })] : []),
    auth({ keys, clock }),
    rateLimit({ store }),
    // QA controls act only on authenticated, admitted requests.
    qa.asked,
  ];
  /** After the input is read and checked: a fault's match compares the parsed path, query and body. */
  const answer: Step[] = [
    qa.planned,
    // A stub answers before recorded replies and the dataset.
    stubs({ store, validators }),
    // Recorded live responses (behind auth and limits, like everything the mock serves).
    ...(options.replayDir
      ? [
          createReplayMiddleware<AppEnv>(options.replayDir, {
            // The mock's own counters for this key, never the live ones recorded.
            headers: (c) => c.get('rateLimitHeaders'),
          }),
        ]
      : []),
    dispatch,
  ];
  const validate = inputValidation({ validators, isSecret });
  const limitBody = bodyReader({
    maxBytes: options.maxBodyBytes,
    tooLarge: () =>
      apiError(413, messages.tooLarge(options.maxBodyBytes), {}, { connection: 'close' }),
    timeoutMs: options.bodyTimeoutMs,
    tooSlow: () =>
      apiError(400, messages.tooSlow(options.bodyTimeoutMs), {}, { connection: 'close' }),
  });

  const allowed = methodsByPath(contract.operations);
  /** 405 with Allow on a path of the document, 404 elsewhere (DECISIONS.md 56 and 91). */
  const answerUnrouted = (c: Context<AppEnv>): Response => {
    const { rawPath } = splitUrl(c.req.url);
    const api = apis.find((a) => rawPath.startsWith(`${a.basePath}/`));
    const methods = api ? allowed(rawPath.slice(api.basePath.length)) : [];
    if (methods.length > 0)
      return jsonResponse(
        405,
        { error: messages.methodNotAllowed(c.req.method, methods) },
        { allow: methods.join(', ') },
      );
    return jsonResponse(404, { error: messages.noSuchPath(rawPath) });
  };

  for (const api of apis) {
    for (const { path, operations } of byPathSpecificity(contract.operations)) {
      const route = `${api.basePath}${toHonoPath(path)}`;
      if (operations.get || operations.head) {
        // Hono answers HEAD from the GET route with the body dropped; pick the HEAD operation when the document has one.
        const pick = (method: string): Operation =>
          method === 'HEAD'
            ? (operations.head ?? operations.get)!
            : (operations.get ?? operations.head)!;
        app.get(
          route,
          chain([bindOperation(api, pick), ...pipeline, validate, ...answer], answerError),
        );
      }
      if (operations.post)
        app.post(
          route,
          chain(
            [
              bindOperation(api, () => operations.post!),
              ...pipeline,
              limitBody,
              validate,
              ...answer,
            ],
            answerError,
          ),
        );
      // Any other method on this path is a 405 here, before a less specific template could take
      // it: GET /product-parts/search is not the part "search" (paths are in specificity order).
      app.all(route, answerUnrouted);
    }
  }
  app.notFound(answerUnrouted);
  app.onError(answerError);
  return app;
}

/** The answer to an error: its own response when it is one of ours (an HTTPException), else a bare 500. */
const answerError: ErrorHandler<AppEnv> = (error, c) => {
  if (error instanceof HTTPException) return error.getResponse();
  // Not a failure: the client left before its request was in; nobody reads this answer.
  if (error instanceof ClientGoneError)
    return new Response(null, { status: CLIENT_CLOSED_REQUEST });
  // A bug of ours, never the client's input: say so without leaking internals.
  console.error(
    `[mock] ${c.req.method} ${splitUrl(c.req.url).rawPath}: ${error.stack ?? error.message}`,
  );
  return jsonResponse(500, { error: messages.serverError });
};

function bindOperation(api: ApiContext, pick: (method: string) => Operation): Step {
  return function routeToOperation(c, next) {
    c.set('api', api);
    c.set('operation', pick(c.req.method));
    return next();
  };
}

const dispatch: Step = (c) => handlers[c.get('operation').operationId](c);
