/**
 * @module middleware/validate
 * Input validation from the operation's schemas: query (strictly decoded, typed, defaulted,
 * unknown and repeated names refused), path parameters (strictly decoded from the raw URL) and
 * JSON bodies. Every problem found goes into one 400, none is dropped after the first.
 */
import { createMiddleware } from 'hono/factory';
import { decodePathParameters, type InputProblem, type Validators } from '../../contract/index.js';
import type { AppEnv } from '../env.js';
import { badRequest } from '../errors.js';
import { parseQueryString, splitUrl } from '../query-string.js';

export function validateInput(options: { validators: Validators }) {
  const { validators } = options;
  if (!validators) throw new Error('validateInput: validators are required');
  return createMiddleware<AppEnv>(async function validate(c, next) {
    const operation = c.get('operation');
    const api = c.get('api');
    const { rawPath, search } = splitUrl(c.req.url);
    const query = parseQueryString(search);
    const path = decodePathParameters(operation.path, rawPath.slice(api.basePath.length));
    const { input, problems } = validators.parseParameters(operation, query.pairs, path.params);
    const all: InputProblem[] = [...query.problems, ...path.problems, ...problems];
    if (operation.requestBody) {
      const body = await readJsonBody(c.req.header('content-type'), () => c.req.text());
      if ('problem' in body) all.push(body.problem);
      else {
        all.push(...validators.checkRequestBody(operation, body.value));
        c.set('body', body.value);
      }
    }
    if (all.length > 0) throw badRequest(all);
    c.set('input', input);
    await next();
  });
}

async function readJsonBody(contentType: string | undefined, text: () => Promise<string>): Promise<{ value: unknown } | { problem: InputProblem }> {
  // Read the body (bounded by the body limit) even when it will be refused: an unread body would
  // leave the keep-alive connection unusable for the client's next request.
  const raw = await text();
  if (!contentType || !/^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim())) {
    return { problem: { in: 'header', name: 'content-type', rule: 'application/json', message: 'the request body must be JSON (content-type: application/json)', received: contentType ?? null } };
  }
  if (raw.trim() === '') return { problem: { in: 'body', name: '', rule: 'required', message: 'the request body is empty' } };
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch (error) {
    return { problem: { in: 'body', name: '', rule: 'valid JSON (RFC 8259)', message: `the request body is not valid JSON: ${(error as Error).message}` } };
  }
}
