/**
 * @module pipeline/response-check
 * The mock's self-check (on in tests): every response it is about to send is held to the
 * document by the shared `checkResponse` (status, headers, rate-limit headers, content type, body
 * schema). Any finding, documented or inferred, replaces the response with a 500 that says exactly
 * what drifted, so a test can never pass on a bad body.
 */
import { createMiddleware } from 'hono/factory';
import {
  checkResponse,
  isJsonMediaType,
  mediaTypeOf,
  NO_BODY_STATUSES,
  type ResponseBody,
  type Validators,
} from '../../contract/index.js';
import type { AppEnv } from '../env.js';
import { CLIENT_CLOSED_REQUEST } from '../errors.js';
import { jsonResponse } from '../response.js';

/** The body as the self-check reads it: JSON parsed when it is (or should be) JSON; files left unread. */
async function bodyOf(res: Response, method: string, jsonExpected: boolean): Promise<ResponseBody> {
  if (method === 'HEAD' || NO_BODY_STATUSES.has(res.status)) return { kind: 'none' };
  if (!jsonExpected && !isJsonMediaType(mediaTypeOf(res.headers.get('content-type'))))
    return { kind: 'streamed' };
  const text = await res.clone().text();
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch (error) {
    // Only a parse failure is the response's fault; anything else is a bug of ours and propagates.
    if (!(error instanceof SyntaxError)) throw error;
    return { kind: 'invalid-json', text, error: error.message };
  }
}

export function responseCheck(options: {
  validators: Validators;
  report?: (message: string) => void;
}) {
  const { validators } = options;
  const report = options.report ?? ((message: string) => console.error(message));
  return createMiddleware<AppEnv>(async function checkResponseAgainstDocument(c, next) {
    await next();
    const { operation } = c.var;
    if (!operation) return;
    // A stub's answer was judged when the stub was added (or is unchecked on purpose).
    if (c.var.stub && !c.var.stub.skipped) return;
    const res = c.res;
    // The client went away before its request was in: no answer is sent, nothing to check.
    if (res.status === CLIENT_CLOSED_REQUEST) return;
    const method = c.req.method;
    const declared = validators.responseFor(operation, res.status);
    const body = declared
      ? await bodyOf(res, method, declared.jsonSchema !== undefined)
      : ({ kind: 'none' } as const);
    const findings = checkResponse(validators, operation, {
      status: res.status,
      method,
      header: (name) => res.headers.get(name),
      body,
    });
    if (findings.length === 0) return;
    const summary = findings
      .map((f) => `${f.pointer || '(body)'}: ${f.message} [${f.rule}: ${f.expected}]`)
      .join('; ');
    const message = `mock response violates the document: ${operation.operationId} ${res.status}: ${summary}`;
    report(message);
    c.res = jsonResponse(500, { error: message });
  });
}
