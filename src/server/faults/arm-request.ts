/**
 * @module faults/arm-request
 * The body of `POST /__mock/faults` (the library's `armFault`) read into a fault to arm. Each
 * field is checked by its rule: the match names an operation of the served release and a key of
 * the keys file (strings: `["listProducts"]` or `42` once armed a fault for every request), the
 * action fields by the parsers `Prefer` uses, a status must be one the operation declares (or, for
 * any operation, one some operation declares: a fault that can never fire is refused, not kept),
 * `retryAfterSeconds` only with a status whose response declares `Retry-After`, and the match held
 * to its operation (match-check.ts: declared parameter names, values a request can carry, a body
 * only where one is taken). `times` (alias `count`) says how many requests it hits. An unknown
 * field is refused too: a typo must not widen a fault to every request. Every problem is named.
 */
import {
  declaredResponse,
  truncate,
  type Contract,
  type InputProblem,
  type Validators,
} from '../../contract/index.js';
import { ACTION_FIELD_NAMES, ActionError, setActionField, type FaultAction } from './actions.js';
import { MAX_ARMED_COUNT, type FaultMatch } from '../../state/faults/faults.js';
import { readMatch } from '../../state/stubs/match.js';
import { checkMatchAgainstOperation } from '../stubs/match-check.js';

export interface ArmRequest {
  match: FaultMatch;
  /** How many matching requests the fault hits (the body's `times`, or its alias `count`). */
  times: number;
  action: FaultAction;
}

/** Requests a fault hits when the body gives neither `times` nor `count`: the one default. */
export const DEFAULT_FAULT_TIMES = 1;
/** The field saying how many requests a fault hits, and its older name, kept as an alias. */
const TIMES_FIELDS = ['times', 'count'] as const;

const MATCH_FIELDS = ['operationId', 'key'] as const;
const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'match',
  ...MATCH_FIELDS,
  ...TIMES_FIELDS,
  ...ACTION_FIELD_NAMES,
]);
const RETRY_AFTER_HEADER = 'retry-after';
/** Longest field name an error names (the body may hold a 60 KB one). */
const MAX_NAME_CHARS = 100;

/** A body field's JSON pointer (RFC 6901: `~` and `/` escaped), its name bounded. */
const pointer = (name: string) =>
  `/${truncate(name, MAX_NAME_CHARS).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** What the request's fields must name: the served release's operations and the keys file's names. */
export interface ArmContext {
  contract: Contract;
  /** The mock's parameter parser: a match's values are read as a request's would be. */
  validators: Validators;
  /** The key's name for a name, a purpose (`fullAccess`) or a secret of the keys file, else undefined. */
  keyNameOf(value: string): string | undefined;
}

/** The fault an arm request asks for, or every problem found in it (each with its pointer and rule). */
/** Problems of a control's JSON body, collected (every one, not the first) as the 400 names them. */
export function bodyProblems(): {
  problems: InputProblem[];
  add: (at: string, rule: string, message: string, received?: unknown) => void;
} {
  const problems: InputProblem[] = [];
  const add = (at: string, rule: string, message: string, received?: unknown) => {
    problems.push({
      in: 'body',
      name: at,
      rule,
      message,
      ...(received === undefined ? {} : { received }),
    });
  };
  return { problems, add };
}

export function readArmRequest(
  body: Record<string, unknown>,
  context: ArmContext,
): ArmRequest | InputProblem[] {
  const { problems, add: problemAt } = bodyProblems();
  const problem = (name: string, rule: string, message: string, received?: unknown) =>
    problemAt(pointer(name), rule, message, received);
  for (const name of Object.keys(body))
    if (!KNOWN_FIELDS.has(name))
      problem(name, `one of ${[...KNOWN_FIELDS].join(', ')}`, 'unknown field');

  const match = readMatchField(body, context, problemAt);

  const timesGiven = TIMES_FIELDS.filter((name) => body[name] !== undefined);
  if (timesGiven.length > 1)
    problem('count', 'either times or count (count is the older name of times)', 'given twice');
  const timesField = timesGiven[0] ?? 'times';
  const times = body[timesField] ?? DEFAULT_FAULT_TIMES;
  if (!Number.isInteger(times) || (times as number) < 1 || (times as number) > MAX_ARMED_COUNT)
    problem(timesField, `an integer from 1 to ${MAX_ARMED_COUNT}`, 'out of range', times);

  const action: FaultAction = {};
  for (const name of ACTION_FIELD_NAMES) {
    if (body[name] === undefined) continue;
    try {
      setActionField(action, name, body[name], name);
    } catch (error) {
      if (!(error instanceof ActionError)) throw error;
      problem(name, 'fault action', error.message, body[name]);
    }
  }
  if (Object.keys(action).length === 0 && problems.length === 0)
    problems.push({
      in: 'body',
      name: '',
      rule: `one of ${ACTION_FIELD_NAMES.join(', ')}`,
      message: 'an action is required',
    });
  if (problems.length > 0) return problems;
  problems.push(...declaredProblems(match, action, context.contract));
  return problems.length > 0 ? problems : { match, times: times as number, action };
}

/**
 * The request pattern: `match` (operationId, params, query, body, key), with the older top-level
 * `operationId` and `key` folded in (one place per field: both is refused). The operation must be
 * one of the served release; the key a name, purpose or secret of the keys file, kept as its name.
 */
export function readMatchField(
  body: Record<string, unknown>,
  context: ArmContext,
  problem: (at: string, rule: string, message: string, received?: unknown) => void,
): FaultMatch {
  let match: FaultMatch = {};
  if (body.match !== undefined) {
    const read = readMatch(body.match);
    if (Array.isArray(read)) for (const p of read) problem(p.pointer, p.rule, p.message);
    else match = read;
  }
  for (const name of MATCH_FIELDS) {
    if (body[name] === undefined) continue;
    if (body.match !== undefined && Object.hasOwn(body.match as object, name)) {
      problem(`/${name}`, `either ${name} or match.${name}`, 'given twice');
      continue;
    }
    if (typeof body[name] !== 'string') problem(`/${name}`, 'a string', 'must be a string');
    else match[name] = body[name];
  }
  const where = (name: string) => (Object.hasOwn(body, name) ? `/${name}` : `/match/${name}`);
  checkMatchAgainstOperation(match, context.contract.operations, context.validators, problem);
  if (
    match.operationId !== undefined &&
    !context.contract.operations.some((op) => op.operationId === match.operationId)
  ) {
    problem(
      where('operationId'),
      'an operationId of the served release (a string)',
      'unknown operation',
      match.operationId,
    );
    delete match.operationId;
  }
  if (match.key !== undefined) {
    // The received value is not echoed: a key's secret sent by mistake must not come back.
    const name = context.keyNameOf(match.key);
    if (name === undefined) {
      problem(
        where('key'),
        'a key name, a key purpose (fullAccess, ...) or a key of the keys file (a string)',
        'unknown key',
      );
      delete match.key;
    } else match.key = name;
  }
  return match;
}

/** A `match` alone (a journal filter, a verify), or every problem in it. */
export function readMatchOnly(value: unknown, context: ArmContext): FaultMatch | InputProblem[] {
  const { problems, add } = bodyProblems();
  const match = readMatchField(value === undefined ? {} : { match: value }, context, add);
  return problems.length > 0 ? problems : match;
}

/** The status must be declared where the fault can hit, and `retryAfterSeconds` announced there. */
function declaredProblems(
  match: FaultMatch,
  action: FaultAction,
  contract: Contract,
): InputProblem[] {
  const scope =
    match.operationId === undefined
      ? contract.operations
      : contract.operations.filter((op) => op.operationId === match.operationId);
  const where = match.operationId ?? 'any operation of the served release';
  const { status, retryAfterSeconds } = action;
  const problems: InputProblem[] = [];
  if (status !== undefined && !scope.some((op) => declaredResponse(op, status))) {
    const declared = [...new Set(scope.flatMap((op) => [...op.responses.keys()]))].sort();
    problems.push({
      in: 'body',
      name: '/status',
      rule: `${where} declares ${declared.join(', ')}`,
      message: 'a status the operation does not declare: the fault could never fire',
      received: status,
    });
  }
  if (retryAfterSeconds !== undefined) {
    const announcing = (s: number) =>
      scope.some((op) =>
        declaredResponse(op, s)?.headers.some((h) => h.name.toLowerCase() === RETRY_AFTER_HEADER),
      );
    const statuses = [...new Set(scope.flatMap((op) => [...op.responses.keys()]))]
      .filter((s) => announcing(Number(s)))
      .sort();
    if (status === undefined || !announcing(status))
      problems.push({
        in: 'body',
        name: '/retryAfterSeconds',
        rule: `only with a status whose response declares Retry-After (${statuses.join(', ') || 'none here'})`,
        message: `not announced by ${status === undefined ? 'the normal answer' : `status ${status}`}`,
        received: retryAfterSeconds,
      });
  }
  return problems;
}
