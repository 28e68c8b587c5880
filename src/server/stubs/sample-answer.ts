/**
 * @module stubs/sample-answer
 * Answers made without a request (no key, no rate limit, no journal), by the operation's own
 * handler: the answer the dataset gives to the request a stub's match describes (the operation's
 * working example from /examples.json with the match's path parameters, query and body laid over
 * it, parsed and checked as the request line would), and the status an href leads to (how the
 * judge follows a stub's or a record's hrefs in process, as the suite follows them on a target).
 */
import { HTTPException } from 'hono/http-exception';
import { pathParametersOf, type Operation, type Validators } from '../../contract/index.js';
import type { RequestMatch } from '../../state/stubs/match.js';
import type { ApiContext } from '../context.js';
import type { OperationExample } from '../examples.js';
import { handlers, type Answer } from '../handlers/index.js';
import { NO_HEADERS } from '../handlers/respond.js';
import { JSON_TYPE, knownBody, wholeBodyHeaders } from '../response.js';
import { mergePatch } from './json-patch.js';

/** A request as the judge sees it: path parameters, query (typed, defaults applied), body. */
export interface AnswerRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body?: unknown;
}

/** An answer the dataset gave, with the request it answered. */
export interface Sampled {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  request: AnswerRequest;
}

/** The status GET on an href's path (below the base URL) and query answers, in an environment. */
export type FollowHref = (
  target: Operation,
  rawPath: string,
  search: string,
  api?: ApiContext,
) => Promise<number>;
/** The request a match describes (typed, defaults applied), or why it is none. */
export type SampleRequest = (op: Operation, match: RequestMatch) => AnswerRequest | string;

/**
 * The dataset's answer to the request a match describes (or why there is none); with the request
 * alone (`request`) and the way to follow an href (`follow`), which the judge needs beside it.
 */
export interface SampleAnswer {
  (op: Operation, match: RequestMatch): Promise<Sampled | string>;
  request: SampleRequest;
  follow: FollowHref;
  /** The base URL the answers' hrefs are read against. */
  baseUrl: string;
}

const text = (value: unknown) => (Array.isArray(value) ? value.join(',') : String(value));

interface Deps {
  api: ApiContext;
  validators: Validators;
  examples: Record<string, OperationExample>;
  origin: string;
}

/** A thrown HTTP error as the answer it carries (a response built by errors.ts). */
function answerOfError(error: HTTPException): Answer {
  const res = error.getResponse();
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => (headers[name] = value));
  return { status: res.status, body: knownBody(res) ?? '', headers };
}

/** Runs an operation's handler on a parsed request, in an environment; a thrown HTTP error is its answer. */
export function handle(api: ApiContext, op: Operation, request: AnswerRequest): Answer {
  try {
    return handlers[op.operationId](api, op, {
      path: request.params,
      query: request.query,
      ...(request.body === undefined ? {} : { body: request.body }),
    });
  } catch (error) {
    if (error instanceof HTTPException) return answerOfError(error);
    throw error;
  }
}

/** The text of an answer's body. */
export function answerText(answer: Answer): string {
  return typeof answer.body === 'string' ? answer.body : new TextDecoder().decode(answer.body);
}

/**
 * GET on a path below an environment's base URL, answered by the handler of `target` (the
 * operation the path names): how the judge follows an href in process.
 */
export function getInProcess(
  validators: Validators,
  api: ApiContext,
  target: Operation,
  rawPath: string,
  search: string,
): Answer {
  const params = pathParametersOf(target, rawPath);
  const { input, problems } = validators.parseParameters(
    target,
    [...new URLSearchParams(search)],
    params ?? {},
  );
  if (!params || problems.length > 0) return { status: 400, body: '', headers: NO_HEADERS };
  return handle(api, target, { params: input.path, query: input.query });
}

/** The status of an href's GET in an environment (the given one, else the mock's first). */
export function followHrefOf(validators: Validators, fallback: ApiContext): FollowHref {
  return (target, rawPath, search, api = fallback) =>
    Promise.resolve(getInProcess(validators, api, target, rawPath, search).status);
}

export function sampleRequestOf(deps: Deps): SampleRequest {
  return (op, match) => {
    const example = deps.examples[op.operationId];
    if (!example) return `no working example of ${op.operationId}`;
    const path: Record<string, string> = { ...example.pathParameters };
    for (const [name, value] of Object.entries(match.params ?? {})) path[name] = text(value);
    const query = Object.entries(match.query ?? {}).map(([n, v]): [string, string] => [n, text(v)]);
    const { input, problems } = deps.validators.parseParameters(op, query, path);
    if (problems.length > 0)
      return `the match's parameters are not a valid request: ${problems.map((p) => `${p.name} ${p.message}`).join('; ')}`;
    if (example.body === undefined) return { params: input.path, query: input.query };
    const body =
      match.body === undefined
        ? structuredClone(example.body)
        : mergePatch(example.body, match.body);
    const bodyProblems = deps.validators.checkRequestBody(op, body);
    if (bodyProblems.length > 0)
      return `the match's body is not a valid request body: ${bodyProblems.map((p) => `${p.name} ${p.message}`).join('; ')}`;
    return { params: input.path, query: input.query, body };
  };
}

export function sampleAnswerOf(deps: Deps): SampleAnswer {
  const request = sampleRequestOf(deps);
  const answer = async (op: Operation, match: RequestMatch): Promise<Sampled | string> => {
    const asked = request(op, match);
    if (typeof asked === 'string') return asked;
    const answer = handle(deps.api, op, asked);
    // The headers as the answer goes out, without the request line's (no key, no rate limit here).
    const headers = wholeBodyHeaders(answer.body, JSON_TYPE, answer.headers);
    try {
      return {
        status: answer.status,
        body: JSON.parse(answerText(answer)) as unknown,
        headers,
        request: asked,
      };
    } catch {
      return `${op.operationId} does not answer JSON: a patch cannot apply`;
    }
  };
  return Object.assign(answer, {
    request,
    follow: followHrefOf(deps.validators, deps.api),
    baseUrl: `${deps.origin}${deps.api.basePath}`,
  });
}
