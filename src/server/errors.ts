/**
 * @module errors
 * One error path: everything that goes wrong becomes an `HTTPException` carrying a ready JSON
 * response in the API's own error shapes, rendered by `app.onError`: the reference's plain
 * `{error}` envelope, plus `code` on 401, 403 and 429 where the source documents it.
 */
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { truncate, type InputProblem } from '../contract/index.js';
import { jsonResponse } from './response.js';

/** Statuses whose documented body carries `code` beside `error` (the source's error table). */
const STATUSES_WITH_CODE = new Set([401, 403, 429]);

/** The messages the mock uses, in one table so wording stays consistent. */
export const messages = {
  missingKey: 'Missing API key: send it in the x-api-key header',
  invalidKey: 'Invalid API key',
  expiredKey: 'Invalid API key: the key has expired',
  wrongEnvironment: (environment: string) => `Invalid API key for the ${environment} environment`,
  forbidden: (family: string) => `This API key has no access to the ${family} endpoints`,
  notFound: (what: string, id: string) => `${what} "${id}" not found`,
  noSuchPath: (path: string) => `No such path: ${path}`,
  outsideBasePath: (path: string, basePath: string) =>
    `No such path: ${path}. The API is under ${basePath} (e.g. ${basePath}/products, with an x-api-key header); its reference is at /docs`,
  methodNotAllowed: (method: string, allow: string[]) =>
    `Method ${method} not allowed here; allowed: ${allow.join(', ')}`,
  tooLarge: (limit: number) => `Request body larger than ${limit} bytes`,
  tooSlow: (ms: number) =>
    `Invalid request: the request body did not arrive within ${ms / 1000} s (the body time bound)`,
  rateLimited: (kind: string, seconds: number) =>
    `Rate limit exceeded (${kind}); retry after ${seconds} s`,
  serverError: 'Internal server error',
} as const;

/** An error in the API's shape: `{error}` plus `code` where the source (or a decision) puts it. */
export function apiError(
  status: number,
  error: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): HTTPException {
  const body = STATUSES_WITH_CODE.has(status)
    ? { error, code: status, ...extra }
    : { error, ...extra };
  return new HTTPException(status as ContentfulStatusCode, {
    res: jsonResponse(status, body, headers),
    message: error,
  });
}

/**
 * A client that closed its connection before its request was in (an upload cut short): not a
 * failure of ours, so the error path logs no stack and the journal shows 499 (nginx's "client
 * closed request"); nothing is sent, there is nobody to send it to.
 */
export class ClientGoneError extends Error {
  constructor(received: number, declared?: string) {
    super(
      `client closed the connection after ${received}${declared === undefined ? '' : ` of ${declared}`} body bytes`,
    );
  }
}

/** The status a request's journal entry shows when its client went away before the answer. */
export const CLIENT_CLOSED_REQUEST = 499;

/** Longest echo of a received value in an error body (a client's huge input is not sent back whole). */
const MAX_ECHO_CHARS = 200;

/** A received value made safe to echo: long strings cut, deep or large structures as a short JSON preview. */
function echo(value: unknown): unknown {
  if (typeof value === 'string') return truncate(value, MAX_ECHO_CHARS);
  if (value === null || typeof value !== 'object') return value;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    return '[too deeply nested to echo]';
  }
  return text.length > MAX_ECHO_CHARS ? truncate(text, MAX_ECHO_CHARS) : value;
}

/** Problems named in one 400 message at most; the rest are counted (a hostile query cannot grow the body). */
const MAX_PROBLEMS_NAMED = 10;

/** One problem as the error line names it: where, what, the rule and the value received. */
function describe(problem: InputProblem): string {
  const where =
    problem.in === 'body' ? `body at "${problem.name || '/'}"` : `${problem.in} "${problem.name}"`;
  const received =
    'received' in problem ? `; received: ${JSON.stringify(echo(problem.received))}` : '';
  return `${where}: ${problem.message} (rule: ${problem.rule}${received})`;
}

/**
 * 400 in the reference's plain `{error}` envelope, the one line naming every problem (parameter or
 * body pointer, rule, value received), the first MAX_PROBLEMS_NAMED of them by name.
 */
export function badRequest(problems: InputProblem[]): HTTPException {
  const named = problems.slice(0, MAX_PROBLEMS_NAMED).map(describe).join('; ');
  const more =
    problems.length > MAX_PROBLEMS_NAMED
      ? `; and ${problems.length - MAX_PROBLEMS_NAMED} more problem(s)`
      : '';
  return apiError(400, `Invalid request: ${named}${more}`);
}

/** 429 with `retry_after` in the body and the `Retry-After` header agreeing. */
export function tooManyRequests(
  kind: string,
  retryAfterSeconds: number,
  headers: Record<string, string> = {},
): HTTPException {
  return apiError(
    429,
    messages.rateLimited(kind, retryAfterSeconds),
    { retry_after: retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds), ...headers },
  );
}
