/**
 * @module pipeline/validate
 * Input validation from the operation's schemas: query (strictly decoded, typed, defaulted,
 * unknown and repeated names refused), path parameters (strictly decoded from the raw URL) and
 * JSON bodies. Every problem found goes into one 400, none is dropped after the first.
 * A valid path and query's parsed input, and a valid JSON body's parsed value, depend on nothing
 * else, so they are kept per operation and raw URL or raw body text in bounded caches (frozen, so
 * no handler can change what the next request gets).
 */
import type { Context, Next } from 'hono';
import type { Step } from './chain.js';
import {
  decodePathParameters,
  type InputProblem,
  type Operation,
  type ParsedInput,
  type Validators,
} from '../../contract/index.js';
import type { AppEnv } from '../env.js';
import { deepFreeze } from '../deep-freeze.js';
import { badRequest } from '../errors.js';
import { Lru } from '../lru.js';
import { parseQueryString, splitUrl } from './query-string.js';
import {
  isSecretParameter,
  KEY_PARAMETER_VALUE_SHOWN,
  type IsSecret,
} from '../journal/query-keys.js';

/** Parsed inputs kept: distinct valid URLs per app. */
const INPUT_CACHE_ENTRIES = 4096;
/** Longer URLs are validated every time, so the cache holds at most entries x this many key bytes. */
const INPUT_CACHE_MAX_URL = 1024;
/** Parsed bodies kept, and the longest body text kept (a 200-number cross-reference is about 4 KiB). */
const BODY_CACHE_ENTRIES = 1024;
const BODY_CACHE_MAX_TEXT = 16 * 1024;

export function inputValidation(options: { validators: Validators; isSecret?: IsSecret }) {
  const { validators, isSecret } = options;
  if (!validators) throw new Error('inputValidation: validators are required');
  // Keyed by the URL or body text as received, the operation kept in the entry: a key made by
  // joining the two was a new string to build and hash on every request.
  const parsedInputs = new Lru<string, { operationId: string; input: ParsedInput }>(
    INPUT_CACHE_ENTRIES,
  );
  const parsedBodies = new Lru<string, { operationId: string; value: unknown }>(BODY_CACHE_ENTRIES);

  /** The JSON body's value with the schema's defaults filled in, or the problems found (nothing cached then). */
  function parseBody(
    operation: Operation,
    contentType: string | undefined,
    raw: string,
    notUtf8At: number | undefined,
  ): { value: unknown; problems: InputProblem[] } {
    const cached =
      isJson(contentType) && notUtf8At === undefined ? parsedBodies.get(raw) : undefined;
    if (cached?.operationId === operation.operationId) return { value: cached.value, problems: [] };
    const body = readJsonBody(contentType, raw, notUtf8At);
    if ('problem' in body) return { value: undefined, problems: [body.problem] };
    const problems = validators.checkRequestBody(operation, body.value);
    if (problems.length === 0 && raw.length <= BODY_CACHE_MAX_TEXT)
      parsedBodies.set(raw, { operationId: operation.operationId, value: deepFreeze(body.value) });
    return { value: body.value, problems };
  }

  /** Query and path of the URL, typed and defaulted, or every problem found (nothing cached then). */
  function parse(
    operation: Operation,
    basePath: string,
    url: string,
  ): { input: ParsedInput; problems: InputProblem[] } {
    const cached = parsedInputs.get(url);
    if (cached?.operationId === operation.operationId) return { input: cached.input, problems: [] };
    const { rawPath, search } = splitUrl(url);
    const query = parseQueryString(search);
    const path = decodePathParameters(operation.path, rawPath.slice(basePath.length));
    const { input, problems } = validators.parseParameters(operation, query.pairs, path.params);
    const all: InputProblem[] = [...query.problems, ...path.problems, ...problems];
    if (all.length === 0 && url.length <= INPUT_CACHE_MAX_URL)
      parsedInputs.set(url, { operationId: operation.operationId, input: deepFreeze(input) });
    return { input, problems: all };
  }

  return function validate(c: Context<AppEnv>, next: Next): Promise<void> {
    const operation = c.get('operation');
    const bodyText = c.get('bodyText');
    // Every POST route reads its body (bounded) in the step before; a route without that step reads it here.
    if (operation.requestBody && bodyText === undefined)
      return c.req.text().then((text) => (c.set('bodyText', text), validate(c, next)));
    const { input, problems: all } = parse(operation, c.get('api').basePath, c.req.url);
    if (operation.requestBody) {
      // The body was read (bounded by the body limit) even if it is refused here: an unread body
      // would leave the keep-alive connection unusable for the client's next request.
      const body = parseBody(
        operation,
        c.req.header('content-type'),
        bodyText,
        c.get('bodyNotUtf8At'),
      );
      all.push(...body.problems);
      if (body.problems.length === 0) c.set('body', body.value);
    }
    if (all.length > 0) throw badRequest(all.map((problem) => withoutKeys(problem, isSecret)));
    c.set('input', input);
    return next();
  } satisfies Step;
}

/**
 * A problem about a key-like query parameter, or one whose value is a key's secret, never echoes
 * its value (it is someone's API key). A malformed escape's problem receives the raw `name=value`.
 */
function withoutKeys(problem: InputProblem, isSecret: IsSecret | undefined): InputProblem {
  if (problem.in !== 'query' || !('received' in problem)) return problem;
  const { received } = problem;
  const value =
    typeof received === 'string' && received.includes('=')
      ? received.slice(received.indexOf('=') + 1)
      : received;
  return isSecretParameter(problem.name, received, isSecret) ||
    isSecretParameter(problem.name, value, isSecret)
    ? { ...problem, received: KEY_PARAMETER_VALUE_SHOWN }
    : problem;
}

const isJson = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/([\w.+-]+\+)?json\b/i.test(contentType.trim());

function readJsonBody(
  contentType: string | undefined,
  raw: string,
  notUtf8At: number | undefined,
): { value: unknown } | { problem: InputProblem } {
  if (!isJson(contentType)) {
    return {
      problem: {
        in: 'header',
        name: 'content-type',
        rule: 'application/json',
        message: 'the request body must be JSON (content-type: application/json)',
        received: contentType ?? null,
      },
    };
  }
  if (notUtf8At !== undefined)
    return {
      problem: {
        in: 'body',
        name: '',
        rule: 'UTF-8 (RFC 8259, section 8.1)',
        message: `the request body is not valid UTF-8 at byte ${notUtf8At}`,
      },
    };
  if (raw.trim() === '')
    return {
      problem: { in: 'body', name: '', rule: 'required', message: 'the request body is empty' },
    };
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch (error) {
    return {
      problem: {
        in: 'body',
        name: '',
        rule: 'valid JSON (RFC 8259)',
        message: `the request body is not valid JSON: ${(error as Error).message}`,
      },
    };
  }
}
