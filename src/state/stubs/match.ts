/**
 * @module state/stubs/match
 * The one request pattern of the QA controls and its one matcher: armed faults, the journal's
 * filter and verify all say which requests they mean with a `RequestMatch`, and every store (this
 * process or Redis) decides with `matches`. A match is plain JSON, so it is stored and sent as is.
 *
 * Every member given must hold: `operationId` equal; each `params` and `query` member equal to the
 * value the mock parsed (typed by the document's schema; a string also matches a number or
 * boolean that prints the same, since a URL only carries text); `body` a JSON subset of the
 * request's body (objects: every given member present and equal, recursively; arrays and scalars:
 * equal); `key` the name of the request's key (a purpose such as `fullAccess` or a secret sent
 * to the controls is turned into the key's name before it is stored: never the secret).
 */
import type { FaultMatch } from '../../api/types.js';

/** Which requests a fault, a journal filter or a verify means; empty means every request. */
/** The one request pattern of the QA controls, as kept: the public `FaultMatch` (api/types.ts). */
export type RequestMatch = FaultMatch;

/** What a request offers to be matched. */
export interface MatchFacts {
  operationId: string | null;
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
  keyName?: string | null;
  /** The kept request headers the request carried (REQUEST_HEADERS_KEPT), by lower-case name. */
  headers?: Readonly<Record<string, string>>;
}

/**
 * The request headers the mock keeps of a request, for the journal and the matcher: what a client
 * chose to send, never the key header (`x-api-key`) or anything else that may carry a secret.
 */
export const REQUEST_HEADERS_KEPT = [
  'accept',
  'content-type',
  'prefer',
  'user-agent',
  'x-request-id',
] as const;

/** The members of a match, in the order a near miss lists them. */
export const MATCH_MEMBERS = ['operationId', 'params', 'query', 'body', 'key', 'headers'] as const;

/** One member of a match that a request does not meet: where, what was expected, what came. */
export interface MatchDifference {
  /** `operationId`, `key`, or a JSON pointer under `params`, `query` or `body` (`/query/offset`). */
  at: string;
  expected: unknown;
  /** `undefined` when the request has no such member. */
  actual: unknown;
}

const own = (object: object, name: string) => Object.prototype.hasOwnProperty.call(object, name);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const escapePointer = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** JSON equality (member order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const names = Object.keys(a);
    return (
      names.length === Object.keys(b).length &&
      names.every((n) => own(b, n) && jsonEqual(a[n], b[n]))
    );
  }
  return false;
}

/** A query or path value: equal as parsed, or a string that prints the parsed scalar. */
export const parameterEqual = (expected: unknown, actual: unknown) =>
  jsonEqual(expected, actual) ||
  (typeof expected === 'string' &&
    (typeof actual === 'number' || typeof actual === 'boolean') &&
    String(actual) === expected);

/** Differences of a JSON subset: each given member missing or unequal, by pointer. */
function subsetDifferences(
  expected: unknown,
  actual: unknown,
  at: string,
  out: MatchDifference[],
): void {
  // An object expected where the request has none: each of its members is missing (a near miss
  // ranks by how many members differ).
  if (isObject(expected) && (isObject(actual) || actual === undefined)) {
    for (const name of Object.keys(expected)) {
      const where = `${at}/${escapePointer(name)}`;
      if (actual === undefined || !own(actual, name))
        out.push({ at: where, expected: expected[name], actual: undefined });
      else subsetDifferences(expected[name], actual[name], where, out);
    }
  } else if (!jsonEqual(expected, actual)) out.push({ at, expected, actual });
}

function parameterDifferences(
  expected: Record<string, unknown>,
  actual: Record<string, unknown> | undefined,
  at: string,
  out: MatchDifference[],
): void {
  for (const name of Object.keys(expected)) {
    const value = actual && own(actual, name) ? actual[name] : undefined;
    if (!parameterEqual(expected[name], value))
      out.push({ at: `${at}/${escapePointer(name)}`, expected: expected[name], actual: value });
  }
}

/** Every member of `match` the request does not meet (empty: it matches). */
export function matchDifferences(match: RequestMatch, facts: MatchFacts): MatchDifference[] {
  const out: MatchDifference[] = [];
  if (match.operationId !== undefined && match.operationId !== facts.operationId)
    out.push({ at: 'operationId', expected: match.operationId, actual: facts.operationId });
  if (match.params !== undefined) parameterDifferences(match.params, facts.params, '/params', out);
  if (match.query !== undefined) parameterDifferences(match.query, facts.query, '/query', out);
  if (match.body !== undefined) subsetDifferences(match.body, facts.body, '/body', out);
  if (match.key !== undefined && match.key !== facts.keyName)
    out.push({ at: 'key', expected: match.key, actual: facts.keyName ?? undefined });
  if (match.headers !== undefined) {
    const sent = facts.headers ?? {};
    for (const [name, value] of Object.entries(match.headers)) {
      const actual = own(sent, name) ? sent[name] : undefined;
      if (actual !== value)
        out.push({ at: `/headers/${escapePointer(name)}`, expected: value, actual });
    }
  }
  return out;
}

/** True when the request meets every member of `match`. */
export const matches = (match: RequestMatch, facts: MatchFacts): boolean =>
  matchDifferences(match, facts).length === 0;

/** A match field that is not what it must be: where (a JSON pointer), the rule, what is wrong. */
export interface MatchProblem {
  pointer: string;
  rule: string;
  message: string;
}

/** Deepest nesting and most members a match may hold (it is stored and compared per request). */
export const MAX_MATCH_DEPTH = 16;
export const MAX_MATCH_MEMBERS = 200;

function countMembers(value: unknown, depth: number): number {
  if (depth > MAX_MATCH_DEPTH) return Infinity;
  if (Array.isArray(value))
    return value.reduce((n: number, v) => n + countMembers(v, depth + 1), 1);
  if (isObject(value))
    return Object.values(value).reduce((n: number, v) => n + countMembers(v, depth + 1), 1);
  return 1;
}

/** Longest header value a match may name (the journal keeps no longer ones whole). */
export const MAX_MATCH_HEADER_CHARS = 1024;
const KEPT: ReadonlySet<string> = new Set(REQUEST_HEADERS_KEPT);

/** `headers`: kept header names (any case, kept in lower case) to string values. */
function readHeaders(
  field: unknown,
  at: string,
  match: RequestMatch,
  problems: MatchProblem[],
): void {
  if (!isObject(field)) {
    problems.push({
      pointer: at,
      rule: 'an object of header names to values',
      message: 'must be an object',
    });
    return;
  }
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(field)) {
    const pointer = `${at}/${escapePointer(name.slice(0, 100))}`;
    const lower = name.toLowerCase();
    if (!KEPT.has(lower))
      problems.push({
        pointer,
        rule: `one of ${REQUEST_HEADERS_KEPT.join(', ')}`,
        message: 'not a header the mock keeps of a request: a match on it could never fire',
      });
    else if (typeof value !== 'string' || value.length > MAX_MATCH_HEADER_CHARS)
      problems.push({
        pointer,
        rule: `a string of at most ${MAX_MATCH_HEADER_CHARS} characters`,
        message: 'must be a string',
      });
    else
      Object.defineProperty(headers, lower, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  match.headers = { ...headers };
}

/**
 * A `match` as sent (hostile JSON) read into a `RequestMatch`, or every problem found, each naming
 * its field. Names (operation, key) are checked by the caller, which knows the release and keys.
 */
export function readMatch(value: unknown, at = '/match'): RequestMatch | MatchProblem[] {
  const problems: MatchProblem[] = [];
  if (!isObject(value)) return [{ pointer: at, rule: 'an object', message: 'must be an object' }];
  const match: RequestMatch = {};
  for (const name of Object.keys(value)) {
    const field = value[name];
    const pointer = `${at}/${escapePointer(name.slice(0, 100))}`;
    switch (name) {
      case 'operationId':
      case 'key':
        if (typeof field !== 'string')
          problems.push({ pointer, rule: 'a string', message: 'must be a string' });
        else match[name] = field;
        break;
      case 'params':
      case 'query':
        if (!isObject(field))
          problems.push({
            pointer,
            rule: 'an object of parameter names to values',
            message: 'must be an object',
          });
        else match[name] = field;
        break;
      case 'body':
        match.body = field;
        break;
      case 'headers':
        readHeaders(field, pointer, match, problems);
        break;
      default:
        problems.push({
          pointer,
          rule: `one of ${MATCH_MEMBERS.join(', ')}`,
          message: 'unknown field',
        });
    }
  }
  if (countMembers(value, 0) > MAX_MATCH_MEMBERS)
    problems.push({
      pointer: at,
      rule: `at most ${MAX_MATCH_MEMBERS} members, nested at most ${MAX_MATCH_DEPTH} deep`,
      message: 'too large',
    });
  return problems.length > 0 ? problems : match;
}
