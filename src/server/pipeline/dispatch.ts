/**
 * @module pipeline/dispatch
 * The last step of a route, and the one adapter between the request line and the answers: the
 * operation's handler (handlers/, a pure function of environment, operation and input) answers
 * with data, and this turns it into the response. A success goes out with the rate limiter's
 * `x-ratelimit-*` counters (rate-limit.ts leaves them on the context); nothing else puts them on
 * an answer: a stub's whole answer and a recorded one come through `respond` and
 * `successHeaders` here too.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import { handlers, type Answer, type HandlerInput } from '../handlers/index.js';
import { NO_HEADERS } from '../handlers/respond.js';
import { bytesResponse, JSON_TYPE } from '../response.js';
import type { Step } from './chain.js';

/** An answer to send; a stub's may have no body. */
export type Outgoing = Omit<Answer, 'body'> & { readonly body?: Answer['body'] };

/** The headers the request line adds to a successful answer: the rate limiter's counters (none when it did not run). */
export function successHeaders(c: Context<AppEnv>): Readonly<Record<string, string>> {
  return c.get('rateLimitHeaders') ?? NO_HEADERS;
}

/** The headers an answer goes out with: on a success the request line's, then the answer's own. */
export function headersOut(
  c: Context<AppEnv>,
  status: number,
  own: Readonly<Record<string, string>>,
): Readonly<Record<string, string>> {
  const added = status >= 200 && status < 300 ? successHeaders(c) : NO_HEADERS;
  // The common case allocates nothing: a handler's answer has no headers of its own.
  if (own === NO_HEADERS) return added;
  return added === NO_HEADERS ? own : { ...added, ...own };
}

/** The response of an answer (JSON unless its headers name another content type). */
export function respond(c: Context<AppEnv>, answer: Outgoing): Response {
  const headers = headersOut(c, answer.status, answer.headers);
  if (answer.body === undefined) return new Response(null, { status: answer.status, headers });
  return bytesResponse(answer.status, answer.body, JSON_TYPE, headers);
}

/** What the handler reads of this request: the validated input, and a POST's validated body. */
function inputOf(c: Context<AppEnv>): HandlerInput {
  const input = c.get('input');
  const body = c.get('body');
  return body === undefined ? input : { path: input.path, query: input.query, body };
}

/** The operation's handler answers. */
export const dispatch: Step = function dispatch(c) {
  const operation = c.get('operation');
  return respond(c, handlers[operation.operationId](c.get('api'), operation, inputOf(c)));
};
