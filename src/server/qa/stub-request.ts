/**
 * @module qa/stub-request
 * The body of `POST /__mock/stubs` (the library's `stub`) read into a stub, its answer held to the
 * contract by the mock's own validators (the judgement every answer gets): a status the operation
 * does not declare is refused, so is an answer that breaks a documented or reference fact (each
 * pointer and rule named); one that breaks an inferred fact is kept with a warning. A patch is
 * judged on the answer the dataset gives to the request the match describes. `unchecked: true`
 * skips the judgement on purpose. Every problem is named by its field.
 */
import type { Contract, InputProblem, Validators } from '../../contract/index.js';
import { MAX_STUB_TIMES, type Stub, type StubAnswer } from '../../state/stubs.js';
import { bodyProblems, readMatchField, type ArmContext } from './arm-request.js';
import { applyPatch, PatchError } from './json-patch.js';
import type { SampleAnswer } from './sample-answer.js';

const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'operationId',
  'match',
  'patch',
  'respond',
  'times',
  'unchecked',
]);
const MAX_HEADERS = 50;
const MAX_HEADER_CHARS = 1000;

export interface StubContext extends ArmContext {
  validators: Validators;
  sampleAnswer: SampleAnswer;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The answer's breaches of the contract: refusals (documented, reference) and warnings (inferred). */
export function judgeAnswer(
  validators: Validators,
  op: Contract['operations'][number],
  answer: { status: number; body: unknown },
): { refusals: string[]; warnings: string[] } {
  const refusals: string[] = [];
  const warnings: string[] = [];
  if (!validators.responseFor(op, answer.status)) {
    refusals.push(
      `status ${answer.status} is not declared by ${op.operationId} (declared: ${[...op.responses.keys()].join(', ')})`,
    );
    return { refusals, warnings };
  }
  for (const v of validators.checkResponseBody(op, answer.status, answer.body)) {
    const said = v.message.startsWith(v.pointer)
      ? v.message.slice(v.pointer.length).trim()
      : v.message;
    const line = `"${v.pointer}" ${said} (${v.source})`;
    (v.source === 'inferred' ? warnings : refusals).push(line);
  }
  return { refusals, warnings };
}

/** A stub asked for, checked; or every problem found (each with its pointer and rule). */
export async function readStubRequest(
  body: Record<string, unknown>,
  context: StubContext,
): Promise<Omit<Stub, 'id'> | InputProblem[]> {
  const { problems, add: problem } = bodyProblems();
  for (const name of Object.keys(body))
    if (!KNOWN_FIELDS.has(name))
      problem(
        `/${name.slice(0, 100).replace(/~/g, '~0').replace(/\//g, '~1')}`,
        `one of ${[...KNOWN_FIELDS].join(', ')}`,
        'unknown field',
      );
  const match = readMatchField(body, context, problem);
  const op = context.contract.operations.find((o) => o.operationId === match.operationId);
  if (
    body.operationId === undefined &&
    !(isObject(body.match) && body.match.operationId !== undefined)
  )
    problem('/operationId', 'an operationId of the served release', 'required');

  const { patch, respond, times, unchecked } = body;
  if ((patch === undefined) === (respond === undefined))
    problem(
      '',
      'exactly one of patch (a merge patch object or a JSON Patch array) or respond',
      'give one',
    );
  if (patch !== undefined && typeof patch !== 'object')
    problem(
      '/patch',
      'a JSON Merge Patch object or a JSON Patch array',
      'must be an object or an array',
    );
  let answer: StubAnswer | undefined;
  if (respond !== undefined) answer = readRespond(respond, problem);
  if (
    times !== undefined &&
    (!Number.isInteger(times) || (times as number) < 1 || (times as number) > MAX_STUB_TIMES)
  )
    problem('/times', `an integer from 1 to ${MAX_STUB_TIMES}`, 'out of range', times);
  if (unchecked !== undefined && typeof unchecked !== 'boolean')
    problem('/unchecked', 'true or false', 'must be a boolean', unchecked);
  if (problems.length > 0 || !op) return problems;

  const stub: Omit<Stub, 'id'> = {
    match: { ...match, operationId: op.operationId },
    ...(patch === undefined ? {} : { patch }),
    ...(answer === undefined ? {} : { respond: answer }),
    ...(times === undefined ? {} : { remaining: times as number }),
    ...(unchecked ? { unchecked: true } : {}),
  };
  if (unchecked) return stub;

  let judged: { status: number; body: unknown };
  if (answer) judged = { status: answer.status, body: answer.body };
  else {
    const sample = await context.sampleAnswer(op, match);
    if (typeof sample === 'string')
      return [
        { in: 'body', name: '/match', rule: 'a request the operation answers', message: sample },
      ];
    try {
      judged = { status: sample.status, body: applyPatch(sample.body, patch) };
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      return [
        { in: 'body', name: '/patch', rule: 'RFC 6902 / RFC 7396', message: `${error.message}` },
      ];
    }
  }
  const { refusals, warnings } = judgeAnswer(context.validators, op, judged);
  if (refusals.length > 0)
    return refusals.map((message) => ({
      in: 'body' as const,
      name: answer ? '/respond' : '/patch',
      rule: `the contract of ${op.operationId}`,
      message,
    }));
  return warnings.length > 0 ? { ...stub, warnings } : stub;
}

function readRespond(
  respond: unknown,
  problem: (at: string, rule: string, message: string, received?: unknown) => void,
): StubAnswer | undefined {
  if (!isObject(respond)) {
    problem('/respond', 'an object: status, body, headers', 'must be an object');
    return undefined;
  }
  const { status, body, headers, ...rest } = respond;
  for (const name of Object.keys(rest))
    problem(`/respond/${name.slice(0, 100)}`, 'one of status, body, headers', 'unknown field');
  if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599) {
    problem('/respond/status', 'an HTTP status (100-599)', 'required, an integer', status);
    return undefined;
  }
  const kept: Record<string, string> = {};
  if (headers !== undefined) {
    if (!isObject(headers) || Object.keys(headers).length > MAX_HEADERS)
      problem(
        '/respond/headers',
        `an object of at most ${MAX_HEADERS} header names to strings`,
        'wrong type or too many',
      );
    else
      for (const [name, value] of Object.entries(headers)) {
        if (
          typeof value !== 'string' ||
          value.length > MAX_HEADER_CHARS ||
          !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) ||
          /[\r\n]/.test(value)
        )
          problem(
            `/respond/headers/${name.slice(0, 100)}`,
            `a header name and a one-line string of at most ${MAX_HEADER_CHARS} characters`,
            'not a header',
          );
        else kept[name.toLowerCase()] = value;
      }
  }
  return {
    status: status as number,
    ...(body === undefined ? {} : { body }),
    ...(headers === undefined ? {} : { headers: kept }),
  };
}
