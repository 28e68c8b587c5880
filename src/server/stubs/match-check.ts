/**
 * @module stubs/match-check
 * A `match` held to its operation, so a match that can never fire is refused where it enters (a
 * stub, an armed fault, a journal filter, a verify), never kept and silently missed:
 * - `params` and `query` name only the path and query parameters the operation declares;
 * - each value is one a request can carry: it is written into a URL as a client would and parsed
 *   by the mock's own parameter parser (`Validators.parseParameters`, the step every request
 *   takes), and what that parse gives must equal the value (so `offset: 'abc'`, `offset: 1.5` and
 *   `offset: '01'`, which parses as 1, are refused);
 * - `body` only where the operation takes a request body;
 * - without an operationId, only the members every operation has: `key` (a parameter or a body
 *   means one operation's input).
 */
import type { InputProblem, Operation, Parameter, Validators } from '../../contract/index.js';
import { parameterEqual, type RequestMatch } from '../../state/stubs/match.js';

type Problem = (at: string, rule: string, message: string, received?: unknown) => void;

const escapePointer = (name: string) => name.slice(0, 100).replace(/~/g, '~0').replace(/\//g, '~1');
const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** How a URL carries a match value (comma-joined for an array parameter), or undefined when it cannot. */
function asUrlText(value: unknown, parameter: Parameter): string | undefined {
  if (isScalar(value)) return String(value);
  if (Array.isArray(value) && parameter.commaJoined && value.every(isScalar))
    return value.map(String).join(',');
  return undefined;
}

/** The problem of one parameter's match value, parsed as the mock parses a request's. */
function valueProblem(
  validators: Validators,
  op: Operation,
  parameter: Parameter,
  value: unknown,
): { rule: string; message: string } | undefined {
  const where = parameter.in === 'path' ? 'path' : 'query';
  const text = asUrlText(value, parameter);
  if (text === undefined)
    return {
      rule: parameter.commaJoined
        ? 'a string, number or boolean, or an array of them'
        : 'a string, number or boolean',
      message: `no URL carries this ${where} parameter value`,
    };
  const { input, problems } =
    where === 'path'
      ? validators.parseParameters(op, [], { [parameter.name]: text })
      : validators.parseParameters(op, [[parameter.name, text]], {});
  const own = problems.find((p: InputProblem) => p.in === where && p.name === parameter.name);
  if (own) return { rule: own.rule, message: own.message };
  const parsed = where === 'path' ? input.path[parameter.name] : input.query[parameter.name];
  if (parameterEqual(value, parsed)) return undefined;
  return {
    rule: `the value as the mock parses it: ${JSON.stringify(parsed)}`,
    message: `no request matches: ${op.operationId} reads ${JSON.stringify(text)} as ${JSON.stringify(parsed)}`,
  };
}

function parameterProblems(
  validators: Validators,
  op: Operation,
  where: 'path' | 'query',
  given: Record<string, unknown>,
  problem: Problem,
): void {
  const member = where === 'path' ? 'params' : 'query';
  const declared = op.parameters.filter((p) => p.in === where);
  const names = declared.map((p) => p.name);
  for (const name of Object.keys(given)) {
    const at = `/match/${member}/${escapePointer(name)}`;
    const parameter = declared.find((p) => p.name === name);
    if (!parameter) {
      problem(
        at,
        `${where} parameters of ${op.operationId}: ${names.join(', ') || 'none'}`,
        names.length === 0
          ? `${op.operationId} has no ${where} parameters`
          : `${op.operationId} has no ${where} parameter ${name} (it has ${names.join(', ')})`,
      );
      continue;
    }
    const wrong = valueProblem(validators, op, parameter, given[name]);
    if (wrong) problem(at, wrong.rule, wrong.message, given[name]);
  }
}

/**
 * Every member of `match` that no request to its operation (or, without one, to any operation)
 * could meet, each named by its pointer under `/match` with the valid names listed.
 */
export function checkMatchAgainstOperation(
  match: RequestMatch,
  operations: readonly Operation[],
  validators: Validators,
  problem: Problem,
): void {
  const op = operations.find((o) => o.operationId === match.operationId);
  if (!op) {
    // An unknown operationId is named by the caller; without one, only `key` means anything.
    if (match.operationId !== undefined) return;
    for (const member of ['params', 'query', 'body'] as const)
      if (match[member] !== undefined)
        problem(
          `/match/${member}`,
          'an operationId with it (operations differ in parameters and bodies)',
          `${member} means one operation's input: name match.operationId`,
        );
    return;
  }
  if (match.params !== undefined) parameterProblems(validators, op, 'path', match.params, problem);
  if (match.query !== undefined) parameterProblems(validators, op, 'query', match.query, problem);
  if (match.body !== undefined && !op.requestBody)
    problem(
      '/match/body',
      `a body only where the operation takes one`,
      `${op.operationId} (${op.method.toUpperCase()}) takes no request body`,
    );
}
