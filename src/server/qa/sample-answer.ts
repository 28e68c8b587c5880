/**
 * @module qa/sample-answer
 * The answer the dataset gives to a request a stub's match describes, made without a request
 * (no key, no rate limit, no journal): the operation's working example from /examples.json with
 * the match's path parameters, query and body laid over it, parsed and checked as the request
 * line would, then answered by the operation's own handler. A patch stub is checked on this.
 */
import { Context } from 'hono';
import type { Operation, Validators } from '../../contract/index.js';
import type { RequestMatch } from '../../state/match.js';
import type { ApiContext } from '../context.js';
import type { AppEnv } from '../env.js';
import type { OperationExample } from '../examples.js';
import { handlers } from '../handlers/index.js';
import { mergePatch } from './json-patch.js';

export type SampleAnswer = (
  op: Operation,
  match: RequestMatch,
) => Promise<{ status: number; body: unknown } | string>;

const text = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value));

export function sampleAnswerOf(deps: {
  api: ApiContext;
  validators: Validators;
  examples: Record<string, OperationExample>;
  origin: string;
}): SampleAnswer {
  return async (op, match) => {
    const example = deps.examples[op.operationId];
    if (!example) return `no working example of ${op.operationId}`;
    const path: Record<string, string> = { ...example.pathParameters };
    for (const [name, value] of Object.entries(match.params ?? {})) path[name] = text(value);
    const query = Object.entries(match.query ?? {}).map(([n, v]): [string, string] => [n, text(v)]);
    const { input, problems } = deps.validators.parseParameters(op, query, path);
    if (problems.length > 0)
      return `the match's parameters are not a valid request: ${problems.map((p) => `${p.name} ${p.message}`).join('; ')}`;
    const c = new Context<AppEnv>(new Request(`${deps.origin}${example.path}`));
    c.set('api', deps.api);
    c.set('operation', op);
    c.set('input', input);
    c.set('rateLimitHeaders', {});
    if (example.body !== undefined) {
      const body =
        match.body === undefined
          ? structuredClone(example.body)
          : mergePatch(example.body, match.body);
      const bodyProblems = deps.validators.checkRequestBody(op, body);
      if (bodyProblems.length > 0)
        return `the match's body is not a valid request body: ${bodyProblems.map((p) => `${p.name} ${p.message}`).join('; ')}`;
      c.set('body', body);
    }
    const res = await handlers[op.operationId](c);
    const answer = await res.text();
    try {
      return { status: res.status, body: JSON.parse(answer) as unknown };
    } catch {
      return `${op.operationId} does not answer JSON: a patch cannot apply`;
    }
  };
}
