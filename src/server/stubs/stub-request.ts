/**
 * @module stubs/stub-request
 * The body of `POST /__mock/stubs` (the library's `stub`) read into a stub, its answer held to the
 * contract by the mock's own validators (the judgement every answer gets): a status the operation
 * does not declare is refused, so is an answer that breaks a documented or reference fact (each
 * pointer and rule named); one that breaks an inferred fact is kept with a warning. A patch is
 * judged on the answer the dataset gives to the request the match describes. `unchecked: true`
 * skips the judgement on purpose. Every problem is named by its field.
 */
import {
  collectHrefs,
  MAX_CONTROL_DEPTH,
  nestsDeeper,
  type InputProblem,
  type Operation,
  type Validators,
} from '../../contract/index.js';
import type { RequestMatch } from '../../state/stubs/match.js';
import { MAX_STUB_TIMES, type Stub, type StubAnswer } from '../../state/stubs/stubs.js';
import { followRefusals, judgeAnswer, JSON_TYPE } from './answer-judge.js';
import { bodyProblems, readMatchField, type ArmContext } from '../faults/arm-request.js';
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
/**
 * The lowest status a stub answers with, checked or not: a 1xx is an interim response, not an
 * answer (100 would leave the client waiting for the real one, 101 switches protocols).
 */
export const MIN_STUB_STATUS = 200;
const MAX_HEADER_CHARS = 1000;

export interface StubContext extends ArmContext {
  validators: Validators;
  sampleAnswer: SampleAnswer;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

// The console's dry run and the stub step judge through this module, as the admin route does.
export { judgeAnswer } from './answer-judge.js';

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
  boundDepth(patch, respond, problem);
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

  const judged = await judgedAnswer(op, match, stub, context);
  if (typeof judged === 'string')
    return [
      { in: 'body', name: '/match', rule: 'a request the operation answers', message: judged },
    ];
  if ('problem' in judged) return [judged.problem];
  const { refusals, warnings } = judged;
  if (refusals.length > 0)
    return refusals.map((message) => ({
      in: 'body' as const,
      name: answer ? '/respond' : '/patch',
      rule: `the contract of ${op.operationId}`,
      message,
    }));
  return warnings.length > 0 ? { ...stub, warnings } : stub;
}

/**
 * The stub's answer judged for the request its match describes: a whole answer with the headers
 * it goes out with, or the dataset's answer with the patch applied; hrefs the dataset's answer
 * did not carry are followed. A string when the match describes no request the dataset answers.
 */
async function judgedAnswer(
  op: Operation,
  match: RequestMatch,
  stub: Omit<Stub, 'id'>,
  context: StubContext,
): Promise<string | { problem: InputProblem } | { refusals: string[]; warnings: string[] }> {
  const { sampleAnswer, validators } = context;
  const common = { baseUrl: sampleAnswer.baseUrl, operations: context.contract.operations };
  let judgement: ReturnType<typeof judgeAnswer>;
  if (stub.respond) {
    const asked = sampleAnswer.request(op, match);
    // The identifiers a whole answer is judged for are the ones its match names (any other
    // request it answers is judged when it is served).
    const named = new Set(Object.keys(match.params ?? {}));
    const request =
      typeof asked === 'string'
        ? {}
        : {
            ...asked,
            params: Object.fromEntries(Object.entries(asked.params).filter(([n]) => named.has(n))),
          };
    const { status, body, headers = {} } = stub.respond;
    judgement = judgeAnswer(
      validators,
      op,
      { status, body, headers: { 'content-type': JSON_TYPE, ...headers } },
      { ...common, request, handMadeHeaders: headers },
    );
  } else {
    const sample = await sampleAnswer(op, match);
    if (typeof sample === 'string') return sample;
    let body: unknown;
    try {
      body = applyPatch(sample.body, stub.patch);
    } catch (error) {
      if (!(error instanceof PatchError)) throw error;
      return {
        problem: {
          in: 'body',
          name: '/patch',
          rule: 'RFC 6902 / RFC 7396',
          message: error.message,
        },
      };
    }
    const knownHrefs = new Set(collectHrefs(sample.body).map((h) => h.value));
    judgement = judgeAnswer(
      validators,
      op,
      { status: sample.status, body, headers: sample.headers },
      { ...common, request: sample.request, knownHrefs },
    );
  }
  const unresolved = await followRefusals(sampleAnswer.follow, judgement.hrefs);
  return {
    refusals: [...judgement.refusals, ...unresolved.map((p) => p.line)],
    warnings: judgement.warnings,
  };
}

/** Checked or not, nothing deeper than the records' bound is kept: no walk of it can then reach the stack's limit. */
function boundDepth(
  patch: unknown,
  respond: unknown,
  problem: (at: string, rule: string, message: string) => void,
): void {
  const tooDeep = `nests deeper than ${MAX_CONTROL_DEPTH} levels (the bound)`;
  if (patch !== undefined && nestsDeeper(patch, MAX_CONTROL_DEPTH))
    problem('/patch', `nesting depth <= ${MAX_CONTROL_DEPTH}`, tooDeep);
  if (isObject(respond) && nestsDeeper(respond.body, MAX_CONTROL_DEPTH))
    problem('/respond/body', `nesting depth <= ${MAX_CONTROL_DEPTH}`, tooDeep);
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
  if (
    !Number.isInteger(status) ||
    (status as number) < MIN_STUB_STATUS ||
    (status as number) > 599
  ) {
    problem(
      '/respond/status',
      `a final HTTP status (${MIN_STUB_STATUS}-599; a 1xx is no answer, even unchecked)`,
      'required, an integer',
      status,
    );
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
