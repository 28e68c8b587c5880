/**
 * @module stubs/match-check.property.test
 * Drawn matches against every operation of the document (its declared parameter names, a few it
 * does not declare, values of every kind, a body or none): each match the double accepts is met
 * by a request built from it, read by the mock's own steps (the query string, the path, the
 * parameter parser) and judged by the one matcher; each refusal names a pointer under `/match`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePathParameters, type Operation, type Schema } from '../../contract/index.js';
import { matches, type RequestMatch } from '../../state/stubs/match.js';
import { validatorsFor } from '../../testing/mock-app.js';
import { parseQueryString } from '../pipeline/query-string.js';
import { checkMatchAgainstOperation } from './match-check.js';

const { contract, validators } = await validatorsFor();

const scalar = fc.oneof(
  fc.integer({ min: -5, max: 200 }),
  fc.double({ min: -10, max: 10, noNaN: true }),
  fc.boolean(),
  fc.string({ maxLength: 8 }),
  fc.constantFrom('0', '01', '1', '10', 'true', 'abc', '', ' 5', '1e2', 'a,b'),
);

/** A value for a parameter: often one its schema allows (an enum member), else any kind at all. */
function valueFor(schema: Schema): fc.Arbitrary<unknown> {
  const items = (schema.items ?? {}) as Schema;
  const enumOf = (s: Schema): unknown[] => (Array.isArray(s.enum) ? (s.enum as unknown[]) : []);
  const members = [...enumOf(schema), ...enumOf(items)];
  return fc.oneof(
    scalar,
    fc.array(scalar, { maxLength: 3 }),
    ...(members.length > 0
      ? [fc.constantFrom(...members), fc.subarray(members, { minLength: 1 })]
      : []),
    fc.constantFrom(null, { n: 1 }),
  );
}

/** Parameters of one place: declared names (and some undeclared), each with a drawn value. */
function membersFor(op: Operation, where: 'path' | 'query'): fc.Arbitrary<Record<string, unknown>> {
  const declared = op.parameters.filter((p) => p.in === where);
  const names = fc.oneof(
    ...(declared.length > 0 ? [fc.constantFrom(...declared)] : []),
    fc.constantFrom('page', 'productId', 'product_id', 'x').map((name) => ({
      name,
      schema: {},
    })),
  );
  return fc
    .array(
      names.chain((p) => valueFor(p.schema).map((v) => [p.name, v] as const)),
      { maxLength: 3 },
    )
    .map((entries) => Object.fromEntries(entries));
}

const matchFor = (op: Operation): fc.Arbitrary<RequestMatch> =>
  fc.record(
    {
      operationId: fc.constantFrom(op.operationId, undefined),
      params: membersFor(op, 'path'),
      query: membersFor(op, 'query'),
      body: fc.constantFrom({}, { productId: 'P-1' }),
      key: fc.constant('demo-unlimited'),
    },
    { requiredKeys: [] },
  );

const inUrl = (value: unknown) =>
  encodeURIComponent(Array.isArray(value) ? value.map(String).join(',') : String(value));

/** The request a match describes, read as the mock reads one: its parsed facts, or why not. */
function requestFrom(op: Operation, match: RequestMatch) {
  const given = match.params ?? {};
  const rawPath = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    Object.hasOwn(given, name) ? inUrl(given[name]) : 'X1',
  );
  const search = Object.entries(match.query ?? {})
    .map(([name, value]) => `${encodeURIComponent(name)}=${inUrl(value)}`)
    .join('&');
  const query = parseQueryString(search);
  const path = decodePathParameters(op.path, rawPath);
  const { input, problems } = validators.parseParameters(op, query.pairs, path.params);
  return {
    problems: [...query.problems, ...path.problems, ...problems],
    facts: {
      operationId: op.operationId,
      params: input.path,
      query: input.query,
      body: match.body,
      keyName: match.key,
    },
  };
}

describe('a match is accepted only when some request meets it', () => {
  it.each(contract.operations.map((op) => [op.operationId, op] as const))('%s', (_, op) => {
    fc.assert(
      fc.property(matchFor(op), (match) => {
        const refusals: string[] = [];
        checkMatchAgainstOperation(match, contract.operations, validators, (at) =>
          refusals.push(at),
        );
        if (refusals.length > 0) {
          for (const at of refusals) expect(at).toMatch(/^\/match\/(params|query|body)(\/|$)/);
          return;
        }
        const request = requestFrom(op, match);
        expect(request.problems, JSON.stringify(match)).toEqual([]);
        expect(matches(match, request.facts), JSON.stringify(match)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
