/**
 * @module operation-routes
 * The API's routes, from the document's operation table (operationId -> handler), most specific
 * path first, each behind the same straight line: request log -> delivery -> (response self-check)
 * -> (variation) -> auth -> rate limit -> QA `Prefer` -> (body reader) -> input validation -> armed
 * fault -> record edits -> stub -> (recorded responses) -> handler. A
 * route's steps are registered as one handler (`chain.ts`). Then the 404/405 answers for paths no
 * route took, and the app's error answer.
 */
import type { Context, ErrorHandler, Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { Operation } from '../../contract/index.js';
import { chain, type Step } from './chain.js';
import type { ApiContext } from '../context.js';
import type { AppEnv } from '../env.js';
import { apiError, ClientGoneError, CLIENT_CLOSED_REQUEST, messages } from '../errors.js';
import { handlers } from '../handlers/index.js';
import { auth } from './auth.js';
import { delivery } from './delivery.js';
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

export function mountOperations(
  app: Hono<AppEnv>,
  { state, replay }: MockParts,
  isSecret: (value: string) => boolean,
): void {
  const { options, contract, validators, keys, clock, faults, store, apis, records } = state;
  const qa = faultInjection({
    plan: faults,
    store,
    validators,
    maxDurationMs: options.maxQaDurationMs,
    sleep: options.sleep,
  });
  const pipeline: Step[] = [
    // Outermost: writes the body (cut or slowed when QA asked) and tells the rate limiter when it is done.
    delivery({ sleep: options.sleep }),
    // Sees every response whole, before delivery cuts or slows it.
    ...(options.validateResponses ? [responseCheck({ validators })] : []),
    // Varies every answer the steps below build, as the document allows; absent when off.
    ...(options.vary ? [variation({ ...options.vary, contract })] : []),
    auth({ keys, clock }),
    rateLimit({ store }),
    // QA controls act only on authenticated, admitted requests: a Prefer header here ...
    qa.asked,
  ];
  /** After the input is read and checked: a fault's match compares the parsed path, query and body. */
  const answer: Step[] = [
    // ... an armed fault here.
    qa.planned,
    // Every answer sees the record edits made so far, on this instance or another.
    recordSync(records),
    // A stub answers before recorded replies and the dataset.
    stubs({ store, validators }),
    // Recorded live responses (behind auth and limits, like everything the mock serves).
    ...(replay ? [replay] : []),
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
