/**
 * @module middleware/response-check
 * The mock's self-check (on in tests): every response it is about to send is validated against
 * the document (status declared, body schema, declared headers). A violation replaces the
 * response with a 500 that says exactly what drifted, so a test can never pass on a bad body.
 */
import { createMiddleware } from 'hono/factory';
import type { Validators, Violation } from '../../contract/index.js';
import type { AppEnv } from '../env.js';
import { jsonResponse } from '../errors.js';

export function responseCheck(options: { validators: Validators; report?: (message: string) => void }) {
  const { validators } = options;
  const report = options.report ?? ((message: string) => console.error(message));
  return createMiddleware<AppEnv>(async function checkResponse(c, next) {
    await next();
    const { operation } = c.var;
    if (!operation) return;
    const res = c.res;
    const declared = validators.responseFor(operation, res.status);
    const violations: Violation[] = [];
    if (!declared) {
      violations.push({ pointer: 'status', rule: `declared statuses: ${[...operation.responses.keys()].join(', ')}`, message: `status ${res.status} is not declared`, source: 'documented', actual: res.status });
    } else {
      violations.push(...validators.checkResponseHeaders(operation, res.status, (name) => res.headers.get(name)));
      if (declared.jsonSchema && c.req.method !== 'HEAD') {
        const text = await res.clone().text();
        let body: unknown;
        try {
          body = JSON.parse(text);
          violations.push(...validators.checkResponseBody(operation, res.status, body));
        } catch {
          violations.push({ pointer: '', rule: 'application/json', message: 'body is not JSON', source: 'documented', actual: text.slice(0, 200) });
        }
      }
    }
    if (violations.length === 0) return;
    const summary = violations.map((v) => `${v.pointer || '(body)'}: ${v.message} [${v.rule}]`).join('; ');
    const message = `mock response violates the document: ${operation.operationId} ${res.status}: ${summary}`;
    report(message);
    c.res = jsonResponse(500, { error: message });
  });
}
