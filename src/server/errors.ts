/**
 * @module errors
 * One error path: everything that goes wrong becomes an `HTTPException` carrying a ready JSON
 * response in the API's own error shapes (`{error, code}`), rendered by `app.onError`.
 */
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { InputProblem } from '../contract/index.js';

/** Statuses whose documented body carries `code` beside `error` (401, 403, 429; 400 and 413 by our decision). */
const STATUSES_WITH_CODE = new Set([400, 401, 403, 405, 413, 429]);

/** The messages the mock uses, in one table so wording stays consistent. */
export const messages = {
  missingKey: 'Missing API key: send it in the x-api-key header',
  invalidKey: 'Invalid API key',
  expiredKey: 'Invalid API key: the key has expired',
  wrongEnvironment: (environment: string) => `Invalid API key for the ${environment} environment`,
  forbidden: (family: string) => `This API key has no access to the ${family} endpoints`,
  notFound: (what: string, id: string) => `${what} "${id}" not found`,
  noSuchPath: (path: string) => `No such path: ${path}`,
  methodNotAllowed: (method: string, allow: string[]) => `Method ${method} not allowed here; allowed: ${allow.join(', ')}`,
  tooLarge: (limit: number) => `Request body larger than ${limit} bytes`,
  rateLimited: (kind: string, seconds: number) => `Rate limit exceeded (${kind}); retry after ${seconds} s`,
  serverError: 'Internal server error',
} as const;

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  return new Response(text, {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers },
  });
}

/** An error in the API's shape: `{error}` plus `code` where the source (or a decision) puts it. */
export function apiError(status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): HTTPException {
  const body = STATUSES_WITH_CODE.has(status) ? { error, code: status, ...extra } : { error, ...extra };
  return new HTTPException(status as ContentfulStatusCode, { res: jsonResponse(status, body, headers), message: error });
}

/** Longest echo of a received value in an error body (a client's huge input is not sent back whole). */
const MAX_ECHO_CHARS = 200;

/** A received value made safe to echo: long strings cut, deep or large structures as a short JSON preview. */
function echo(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_ECHO_CHARS ? `${value.slice(0, MAX_ECHO_CHARS)}...` : value;
  if (value === null || typeof value !== 'object') return value;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    return '[too deeply nested to echo]';
  }
  return text.length > MAX_ECHO_CHARS ? `${text.slice(0, MAX_ECHO_CHARS)}...` : value;
}

/** 400 naming every problem: the first in `error`, all of them in `details`. */
export function badRequest(raw: InputProblem[]): HTTPException {
  const problems = raw.map((p) => ('received' in p ? { ...p, received: echo(p.received) } : p));
  const first = problems[0];
  const where = first.in === 'body' ? `body at "${first.name || '/'}"` : `${first.in} "${first.name}"`;
  const summary = `${where}: ${first.message} (rule: ${first.rule}${'received' in first ? `; received: ${JSON.stringify(first.received)}` : ''})`;
  const more = problems.length > 1 ? ` and ${problems.length - 1} more problem(s), see details` : '';
  return apiError(400, `Invalid request: ${summary}${more}`, { details: problems });
}

/** 429 with `retry_after` in the body and the `Retry-After` header agreeing. */
export function tooManyRequests(kind: string, retryAfterSeconds: number, headers: Record<string, string> = {}): HTTPException {
  return apiError(429, messages.rateLimited(kind, retryAfterSeconds), { retry_after: retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds), ...headers });
}
