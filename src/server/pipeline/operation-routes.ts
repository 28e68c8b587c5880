/**
 * @module operation-routes
 * The API's routes, from the document's operation table (operationId -> handler), most specific
 * path first, each behind the same straight line of steps: `operationSteps` below is the list, in
 * request order, each step named with the room it lives in (most in this folder; the QA features'
 * in their own rooms). The request log (request-log.ts) runs before it, for every request
 * (mount.ts). A route's steps are registered as one handler (`chain.ts`). Then the 404/405
 * answers for paths no route took, and the app's error answer.
 */
import type { Context, ErrorHandler, Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Operation } from '../../contract/index.js';
import { chain, type Step } from './chain.js';
import type { ApiContext } from '../context.js';
import type { AppEnv } from '../env.js';
import { apiError, ClientGoneError, CLIENT_CLOSED_REQUEST, messages } from '../errors.js';
import { auth } from './auth.js';
import { delivery } from './delivery.js';
import { dispatch } from './dispatch.js';
import { rateLimit } from './rate-limit.js';
import { bodyReader } from './read-body.js';
import { responseCheck } from './response-check.js';
import { inputValidation } from './validate.js';
import type { MockParts } from '../mock-state.js';
import { recordSync } from '../records/control.js';
import { faultInjection } from '../faults/fault-injection.js';
import { stubs } from '../stubs/stubs.js';
import { splitUrl } from './query-string.js';
import { jsonResponse } from '../response.js';
import { byPathSpecificity, methodsByPath, toHonoPath } from './routes.js';
import { variation } from './variation.js';

/**
 * The steps of an API request after its operation is bound, in order (a POST's; a GET's are the
 * same without the body reader). Each step is built once and shared by every route.
 */
function operationSteps(
  { state, replay }: MockParts,
  isSecret: (value: string) => boolean,
): Record<'get' | 'post', Step[]> {
  const { options, contract, validators, keys, clock, faults, stores, records } = state;
  const qa = faultInjection({
    plan: faults,
    store: stores.faults,
    validators,
    maxDurationMs: options.maxQaDurationMs,
    sleep: options.sleep,
  });
  const readBody = bodyReader({
    maxBytes: options.maxBodyBytes,
    tooLarge: () =>
      apiError(413, messages.tooLarge(options.maxBodyBytes), {}, { connection: 'close' }),
    timeoutMs: options.bodyTimeoutMs,
    tooSlow: () =>
      apiError(400, messages.tooSlow(options.bodyTimeoutMs), {}, { connection: 'close' }),
  });
  const line: (Step | false | undefined)[] = [
    // pipeline/delivery.ts, outermost: the connection's turn, the body written (cut or slowed
    // when QA asked), the rate limiter's slot given back when it is done.
    delivery({ sleep: options.sleep }),
    // pipeline/response-check.ts (`validateResponses`): sees every response whole, before delivery cuts or slows it.
    options.validateResponses && responseCheck({ validators }),
    // pipeline/variation.ts (`--vary`): varies every answer the steps below build, as the document allows.
    options.vary && variation({ ...options.vary, contract }),
    // pipeline/auth.ts, then pipeline/rate-limit.ts: QA acts only on authenticated, admitted requests.
    auth({ keys, clock }),
    rateLimit({ store: stores.limits }),
    // faults/fault-injection.ts: a `Prefer` header's action governs the request alone, whatever its input.
    qa.asked,
    // pipeline/read-body.ts (POST): the body, read within its bounds.
    readBody,
    // pipeline/validate.ts: path, query and body, typed and defaulted, or one 400 with every problem.
    inputValidation({ validators, isSecret }),
    // faults/fault-injection.ts: an armed fault (its match compares the parsed input), else the plan's.
    qa.planned,
    // records/control.ts: every answer sees the record edits made so far, on this instance or another.
    recordSync(records),
    // stubs/stubs.ts: a stub answers before recorded replies and the dataset.
    stubs({ store: stores.stubs, validators }),
    // src/recordings/replay.ts (`--replay`): recorded live answers, behind auth and limits.
    replay,
    // pipeline/dispatch.ts: the operation's handler (handlers/), its answer made the response.
    dispatch,
  ];
  const post = line.filter((step): step is Step => !!step);
  return { get: post.filter((step) => step !== readBody), post };
}

export function mountOperations(
  app: Hono<AppEnv>,
  parts: MockParts,
  isSecret: (value: string) => boolean,
): void {
  const { contract, apis } = parts.state;
  const steps = operationSteps(parts, isSecret);
  const allowed = methodsByPath(contract.operations);
  /** 405 with Allow on a path of the document, 404 elsewhere (DECISIONS.md 56 and 89). */
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
    // `/` or `/products`: a client that left out the base path is told where the API is.
    if (!api && apis[0])
      return jsonResponse(404, { error: messages.outsideBasePath(rawPath, apis[0].basePath) });
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
        app.get(route, chain([bindOperation(api, pick), ...steps.get], answerError));
      }
      if (operations.post)
        app.post(
          route,
          chain([bindOperation(api, () => operations.post!), ...steps.post], answerError),
        );
      // Any other method on this path is a 405 here, before a less specific template could take
      // it: GET /product-parts/search is not the part "search" (paths are in specificity order).
      app.all(route, answerUnrouted);
    }
  }

  app.notFound(answerUnrouted);
  app.onError(answerError);
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
