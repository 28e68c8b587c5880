/**
 * @module validators.test
 * The shared validators: query/path coercion and the problems a 400 reports, response headers, and
 * the closest-branch filtering of `oneOf`/`anyOf` errors.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  closestBranchErrors,
  createValidators,
  loadContract,
  ruleOf,
  type Contract,
  type InputProblem,
  type Validators,
} from './index.js';

let contract: Contract;
let validators: Validators;
beforeAll(async () => {
  contract = await loadContract({ release: 'unreleased' });
  validators = createValidators(contract);
});

/** Parses a query string (as the server receives it) for one operation. */
function parse(operationId: string, query: string, path: Record<string, string> = {}) {
  return validators.parseParameters(
    contract.operation(operationId),
    [...new URLSearchParams(query)],
    path,
  );
}

const brief = (problems: InputProblem[]) =>
  problems.map(({ in: where, name, rule, received }) => ({ in: where, name, rule, received }));

describe('parseParameters', () => {
  it('applies the documented defaults when nothing is given', () => {
    const { input, problems } = parse('listProducts', '');
    expect(problems).toEqual([]);
    expect(input.query).toEqual({
      limit: 10,
      offset: 0,
      order: ['wwwUpdateDate'],
      orderDirection: ['desc'],
    });
  });

  it("applies the reference's defaults where the source shows none", () => {
    expect(parse('listSoftwareTools', '').input.query).toEqual({
      limit: 10,
      offset: 0,
      order: ['wwwUpdateDate'],
      orderDirection: ['desc'],
      softwareType: 'all',
      includeDiscontinued: false,
    });
    // /documents: no sorting; the limit default is ours (the reference's schema gives none).
    expect(parse('listDocuments', '').input.query).toEqual({ limit: 10, offset: 0 });
    expect(parse('listDocumentTypes', '').input.query).toEqual({ limit: 50, offset: 0 });
    expect(parse('listProductPartAttributes', '').input.query).toEqual({ limit: 50, offset: 0 });
  });

  it('coerces integers, comma lists and booleans', () => {
    const { input, problems } = parse(
      'listSoftwareTools',
      'limit=25&offset=3&order=softwareToolName,softwareType&orderDirection=asc,desc&includeDiscontinued=true',
    );
    expect(problems).toEqual([]);
    expect(input.query).toEqual({
      limit: 25,
      offset: 3,
      order: ['softwareToolName', 'softwareType'],
      orderDirection: ['asc', 'desc'],
      softwareType: 'all',
      includeDiscontinued: true,
    });
  });

  it("takes the reference's /documents filters, typed", () => {
    const { input, problems } = parse(
      'listDocuments',
      'limit=100&offset=250&language=zh-hans&dcpDocumentIdStartsWith=DCP-10&productId=LTM4700&type=Datasheet&subType=Driver%20Package&category=Power&documentRevisionDateStart=2025-01-01&documentRevisionDateEnd=2025-12-31',
    );
    expect(problems).toEqual([]);
    expect(input.query).toEqual({
      limit: 100,
      offset: 250,
      language: 'zh-hans',
      dcpDocumentIdStartsWith: 'DCP-10',
      productId: 'LTM4700',
      type: 'Datasheet',
      subType: 'Driver Package',
      category: 'Power',
      documentRevisionDateStart: '2025-01-01',
      documentRevisionDateEnd: '2025-12-31',
    });
  });

  it('rejects the parameters the reference does not have: /documents sorting and the old names', () => {
    for (const [operationId, query] of [
      ['listDocuments', 'order=title'],
      ['listDocuments', 'orderDirection=asc'],
      ['listDocuments', 'revisionDateFrom=2025-01-01'],
      ['listDocuments', 'revisionDateTo=2025-01-01'],
      ['listSoftwareTools', 'discontinued=true'],
    ]) {
      const problems = parse(operationId, query).problems;
      expect(
        problems.map((p) => [p.name, p.rule.startsWith('declared parameters: ')]),
        `${operationId} ${query}`,
      ).toEqual([[query.split('=')[0], true]]);
    }
  });

  it('keeps string filters as given and passes path values through', () => {
    const { input, problems } = parse('getProductPart', '', { orderable_id: 'LTM4700EY#PBF' });
    expect(problems).toEqual([]);
    expect(input.path).toEqual({ orderable_id: 'LTM4700EY#PBF' });
    expect(parse('listProducts', 'category=Power%20Management').input.query.category).toBe(
      'Power Management',
    );
  });

  it('rejects a non-integer limit, with the value received', () => {
    expect(brief(parse('listProducts', 'limit=ten').problems)).toEqual([
      { in: 'query', name: 'limit', rule: 'type: integer', received: 'ten' },
    ]);
    expect(brief(parse('listProducts', 'limit=2.5').problems)).toEqual([
      { in: 'query', name: 'limit', rule: 'type: integer', received: '2.5' },
    ]);
  });

  it('rejects limit 0 and 101, accepts 1 and 100, on every list', () => {
    for (const operationId of [
      'listProducts',
      'listProductParts',
      'listProductPartAttributes',
      'listDocuments',
      'listDocumentTypes',
      'listBoardsKits',
      'listPackages',
      'listSoftwareTools',
    ]) {
      expect(brief(parse(operationId, 'limit=0').problems), operationId).toEqual([
        { in: 'query', name: 'limit', rule: 'minimum: 1', received: 0 },
      ]);
      expect(brief(parse(operationId, 'limit=101').problems), operationId).toEqual([
        { in: 'query', name: 'limit', rule: 'maximum: 100', received: 101 },
      ]);
      expect(parse(operationId, 'limit=1').problems, operationId).toEqual([]);
      expect(parse(operationId, 'limit=100').problems, operationId).toEqual([]);
    }
  });

  it('rejects a negative page number', () => {
    expect(brief(parse('listBoardsKits', 'offset=-1').problems)).toEqual([
      { in: 'query', name: 'offset', rule: 'minimum: 0', received: -1 },
    ]);
  });

  it('rejects an unknown parameter and lists the declared ones', () => {
    const [problem, ...rest] = parse('listPackages', 'pageSize=5').problems;
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ in: 'query', name: 'pageSize', received: '5' });
    expect(problem.rule).toBe(
      'declared parameters: limit, offset, order, orderDirection, packageCode, packageType, packageStatus',
    );
    expect(problem.message).toContain('unknown query parameter "pageSize"');
  });

  it('rejects a repeated parameter instead of picking one', () => {
    expect(brief(parse('listProducts', 'limit=5&limit=6').problems)).toEqual([
      { in: 'query', name: 'limit', rule: 'at most once', received: '6' },
    ]);
  });

  it('rejects a bad value inside a comma list, naming that value', () => {
    expect(brief(parse('listProducts', 'order=title,price').problems)).toEqual([
      { in: 'query', name: 'order', rule: 'enum: wwwUpdateDate, title', received: 'price' },
    ]);
    expect(brief(parse('listProducts', 'orderDirection=up').problems)).toEqual([
      { in: 'query', name: 'orderDirection', rule: 'enum: asc, desc', received: 'up' },
    ]);
  });

  it('rejects enum filters and booleans outside their sets', () => {
    expect(brief(parse('listBoardsKits', 'boardKitType=prototype').problems)).toEqual([
      {
        in: 'query',
        name: 'boardKitType',
        rule: 'enum: development, evaluation, demonstration, reference, starter',
        received: 'prototype',
      },
    ]);
    expect(brief(parse('listSoftwareTools', 'includeDiscontinued=yes').problems)).toEqual([
      { in: 'query', name: 'includeDiscontinued', rule: 'type: boolean', received: 'yes' },
    ]);
    expect(brief(parse('listDocuments', 'language=de').problems)).toEqual([
      { in: 'query', name: 'language', rule: 'enum: en, ja, zh-hans', received: 'de' },
    ]);
    expect(brief(parse('listPackages', 'order=title').problems)).toEqual([
      {
        in: 'query',
        name: 'order',
        rule: 'enum: wwwUpdateDate, packageCode, packageType, packageStatus',
        received: 'title',
      },
    ]);
  });

  it('rejects a malformed date filter', () => {
    expect(brief(parse('listDocuments', 'documentRevisionDateStart=2026-13-45').problems)).toEqual([
      {
        in: 'query',
        name: 'documentRevisionDateStart',
        rule: 'format: date',
        received: '2026-13-45',
      },
    ]);
    expect(brief(parse('listDocuments', 'documentRevisionDateEnd=31.12.2025').problems)).toEqual([
      {
        in: 'query',
        name: 'documentRevisionDateEnd',
        rule: 'format: date',
        received: '31.12.2025',
      },
    ]);
  });

  it('rejects an empty filter value', () => {
    expect(brief(parse('listProducts', 'productId=').problems)).toEqual([
      { in: 'query', name: 'productId', rule: 'minLength: 1', received: '' },
    ]);
  });

  it('collects every problem at once, not just the first', () => {
    const problems = parse('listProducts', 'limit=0&offset=x&order=price&colour=red').problems;
    expect(problems.map((p) => p.name).sort()).toEqual(['colour', 'limit', 'offset', 'order']);
  });

  it('still fills defaults for the parameters that were fine', () => {
    const { input } = parse('listProducts', 'limit=0');
    expect(input.query).toMatchObject({ offset: 0, order: ['wwwUpdateDate'] });
  });
});

describe('checkResponseHeaders', () => {
  const headers = (values: Record<string, string>) => (name: string) => values[name];

  it('accepts both rate-limit headers as integers', () => {
    const op = contract.operation('listProducts');
    expect(
      validators.checkResponseHeaders(
        op,
        200,
        headers({ 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '599' }),
      ),
    ).toEqual([]);
  });

  it('rate-limit headers are optional (the source says responses "may" carry them; the reference has none)', () => {
    const op = contract.operation('getPackage');
    expect(
      validators.checkResponseHeaders(op, 200, headers({ 'x-ratelimit-limit': '600' })),
    ).toEqual([]);
    expect(validators.checkResponseHeaders(op, 200, headers({}))).toEqual([]);
  });

  it('reports a missing required header', () => {
    const op = contract.operation('downloadDocument');
    const violations = validators.checkResponseHeaders(
      op,
      200,
      headers({ 'content-disposition': 'attachment; filename="a.pdf"' }),
    );
    expect(violations.map(({ pointer, rule }) => ({ pointer, rule }))).toEqual([
      { pointer: 'header:content-length', rule: 'required header' },
    ]);
  });

  it('reports a mistyped header with the raw value', () => {
    const op = contract.operation('getPackage');
    const violations = validators.checkResponseHeaders(
      op,
      200,
      headers({ 'x-ratelimit-limit': 'many', 'x-ratelimit-remaining': '-1' }),
    );
    expect(violations.map(({ pointer, rule, actual }) => ({ pointer, rule, actual }))).toEqual([
      { pointer: 'header:x-ratelimit-limit', rule: 'type: integer', actual: 'many' },
      { pointer: 'header:x-ratelimit-remaining', rule: 'minimum: 0', actual: '-1' },
    ]);
  });

  it('Retry-After on 429 is optional but must be whole seconds when sent', () => {
    const op = contract.operation('listBoardsKits');
    expect(validators.checkResponseHeaders(op, 429, headers({}))).toEqual([]);
    expect(validators.checkResponseHeaders(op, 429, headers({ 'retry-after': '30' }))).toEqual([]);
    expect(
      validators
        .checkResponseHeaders(op, 429, headers({ 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }))
        .map((v) => v.rule),
    ).toEqual(['type: integer']);
  });

  it('the download requires content-length and content-disposition as well', () => {
    const op = contract.operation('downloadDocument');
    const violations = validators.checkResponseHeaders(
      op,
      200,
      headers({ 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '1' }),
    );
    expect(violations.map((v) => v.pointer).sort()).toEqual([
      'header:content-disposition',
      'header:content-length',
    ]);
  });

  it('has nothing to say about an undeclared status or a status without headers', () => {
    const op = contract.operation('getPackage');
    expect(validators.checkResponseHeaders(op, 418, headers({}))).toEqual([]);
    expect(validators.checkResponseHeaders(op, 404, headers({}))).toEqual([]);
  });
});

describe('responseFor', () => {
  it('is the declared-response lookup', () => {
    const op = contract.operation('getDocumentByAgileId');
    expect(validators.responseFor(op, 404)?.status).toBe('404');
    expect(validators.responseFor(op, 500)?.source).toBe('inferred');
    expect(validators.responseFor(op, 302)).toBeUndefined();
  });
});

describe('closestBranchErrors', () => {
  const error = (
    schemaPath: string,
    keyword: string,
    instancePath = '',
    params: Record<string, unknown> = {},
  ): ErrorObject => ({ keyword, schemaPath, instancePath, params });

  it('keeps only the branch with the fewest errors and drops the combinator error', () => {
    const far1 = error('#/oneOf/0/required', 'required', '', { missingProperty: 'url' });
    const far2 = error('#/oneOf/0/required', 'required', '', { missingProperty: 'providedBy' });
    const near = error('#/oneOf/1/properties/title/type', 'type', '/title', { type: 'string' });
    const combinator = error('#/oneOf', 'oneOf');
    expect(closestBranchErrors([far1, far2, near, combinator])).toEqual([near]);
  });

  it('leaves errors outside the combinator alone', () => {
    const outside = error('#/properties/id/type', 'type', '/id', { type: 'string' });
    const branch = error('#/properties/x/anyOf/1/type', 'type', '/x', { type: 'array' });
    const other = error('#/properties/x/anyOf/0/enum', 'enum', '/x', { allowedValues: ['a'] });
    const extra = error('#/properties/x/anyOf/0/minLength', 'minLength', '/x', { limit: 1 });
    const combinator = error('#/properties/x/anyOf', 'anyOf', '/x');
    expect(closestBranchErrors([outside, other, extra, branch, combinator])).toEqual([
      outside,
      branch,
    ]);
  });

  it('keeps the combinator error when it has no branch errors to stand for it (e.g. oneOf matched twice)', () => {
    const combinator = error('#/oneOf', 'oneOf', '', { passingSchemas: [0, 1] });
    expect(closestBranchErrors([combinator])).toEqual([combinator]);
  });

  it('on a real schema reports the near branch of CadModel (a document reference with a bad title)', () => {
    const part = {
      orderableId: 'X#PBF',
      productId: 'X',
      productHref: '/products/X',
      productFamily: 'F',
      description: 'd',
      lifecycleStatus: 'Production',
      packageCode: 'P',
      packageHref: '/packages/P',
      parametrics: [],
      cadModel: [
        {
          agileId: 'A',
          dcpDocumentId: null,
          title: 7,
          type: 'CAD Model',
          language: 'en',
          href: '/documents/agile-id/A',
        },
      ],
    };
    const violations = validators.checkResponseBody(
      contract.operation('getProductPart'),
      200,
      part,
    );
    expect(violations.map(({ pointer, rule }) => ({ pointer, rule }))).toEqual([
      { pointer: '/cadModel/0/title', rule: 'type: string' },
    ]);
  });
});

describe('ruleOf', () => {
  it('words each keyword as the document states it', () => {
    const rule = (keyword: string, params: Record<string, unknown>) =>
      ruleOf({ keyword, params, schemaPath: '#', instancePath: '' });
    expect(rule('type', { type: 'integer' })).toBe('type: integer');
    expect(rule('enum', { allowedValues: [1, 2] })).toBe('enum: 1, 2');
    expect(rule('const', { allowedValue: 401 })).toBe('const: 401');
    expect(rule('required', { missingProperty: 'title' })).toBe('required: title');
    expect(rule('maxItems', { limit: 200 })).toBe('maxItems: 200');
    expect(rule('additionalProperties', { additionalProperty: 'sort' })).toBe(
      'additionalProperties: false (sort)',
    );
    expect(rule('oneOf', {})).toBe('oneOf');
  });
});
