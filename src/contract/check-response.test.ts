/**
 * @module contract/check-response.test
 * The shared response rules, one broken at a time on a conforming list answer: each finding names
 * its rule (the names the mock, the proxy and the suite report under), pointer, expected and source.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkResponse,
  MAX_BODY_FINDINGS,
  MAX_UNDECLARED_PATTERNS,
  createValidators,
  isJsonMediaType,
  loadContract,
  mediaTypeOf,
  type Contract,
  type Operation,
  type ResponseBody,
  type ResponseUnderCheck,
  type Validators,
} from './index.js';

let contract: Contract;
let validators: Validators;
let listPackages: Operation;

beforeAll(async () => {
  contract = await loadContract({ release: 'unreleased' });
  validators = createValidators(contract);
  listPackages = contract.operation('listPackages');
});

const page = () => ({
  data: [] as unknown[],
  pagination: { offset: 0, limit: 10, total: 0, has_more: false },
});

/** A conforming 200 for listPackages, with `changes` applied. */
function response(
  changes: {
    status?: number;
    method?: string;
    headers?: Record<string, string | null>;
    body?: ResponseBody;
  } = {},
): ResponseUnderCheck {
  const headers: Record<string, string | null> = {
    'content-type': 'application/json; charset=utf-8',
    'x-ratelimit-limit': '100',
    'x-ratelimit-remaining': '99',
    ...changes.headers,
  };
  return {
    status: changes.status ?? 200,
    method: changes.method ?? 'GET',
    header: (name) => headers[name] ?? null,
    body: changes.body ?? { kind: 'json', value: page() },
  };
}

const rules = (r: ResponseUnderCheck, op = listPackages) =>
  checkResponse(validators, op, r, { undeclaredFields: true }).map((f) => f.rule);

describe('checkResponse', () => {
  it('finds nothing in a conforming answer', () => {
    expect(checkResponse(validators, listPackages, response(), { undeclaredFields: true })).toEqual(
      [],
    );
  });

  it('an undeclared status is the only finding', () => {
    expect(checkResponse(validators, listPackages, response({ status: 418 }))).toEqual([
      expect.objectContaining({
        kind: 'violation',
        rule: 'undeclared-status',
        pointer: 'status',
        actual: 418,
        source: 'documented',
        expected: expect.stringMatching(/^one of the declared statuses: .*200/),
      }),
    ]);
  });

  it('missing rate-limit headers are no finding (the source says "may carry"; the reference publishes none)', () => {
    expect(
      checkResponse(
        validators,
        listPackages,
        response({ headers: { 'x-ratelimit-limit': null, 'x-ratelimit-remaining': null } }),
      ),
    ).toEqual([]);
    expect(
      checkResponse(
        validators,
        listPackages,
        response({ headers: { 'x-ratelimit-remaining': null } }),
      ),
    ).toEqual([]);
  });

  it('mistyped rate-limit headers are documented rate-limit-headers findings', () => {
    const findings = checkResponse(
      validators,
      listPackages,
      response({ headers: { 'x-ratelimit-limit': 'many', 'x-ratelimit-remaining': '-1' } }),
    );
    expect(findings.map((f) => [f.rule, f.pointer, f.expected, f.source])).toEqual([
      ['rate-limit-headers', 'header:x-ratelimit-limit', 'type: integer', 'documented'],
      ['rate-limit-headers', 'header:x-ratelimit-remaining', 'minimum: 0', 'documented'],
    ]);
  });

  it('more remaining than the limit is rate-limit-remaining', () => {
    expect(rules(response({ headers: { 'x-ratelimit-remaining': '101' } }))).toEqual([
      'rate-limit-remaining',
    ]);
  });

  it('a wrong media type is content-type, documented where JSON is declared', () => {
    const [finding] = checkResponse(
      validators,
      listPackages,
      response({ headers: { 'content-type': 'text/plain' }, body: { kind: 'streamed' } }),
    );
    expect(finding).toMatchObject({
      rule: 'content-type',
      pointer: 'header:content-type',
      expected: 'application/json',
      actual: 'text/plain',
      source: 'documented',
    });
  });

  it('a body that does not parse is json, with the parser message', () => {
    const findings = checkResponse(
      validators,
      listPackages,
      response({
        body: { kind: 'invalid-json', text: '{"data":', error: 'Unexpected end of JSON input' },
      }),
    );
    expect(findings).toEqual([
      expect.objectContaining({
        rule: 'json',
        pointer: '',
        actual: '{"data":',
        message: 'body is not valid JSON: Unexpected end of JSON input',
      }),
    ]);
  });

  it('a schema break is schema, with pointer, rule and value', () => {
    const body = page();
    (body.pagination as Record<string, unknown>).total = 'many';
    expect(
      checkResponse(validators, listPackages, response({ body: { kind: 'json', value: body } })),
    ).toEqual([
      expect.objectContaining({
        kind: 'violation',
        rule: expect.stringMatching(/^(schema|inferred-shape)$/),
        pointer: '/pagination/total',
        expected: 'type: integer',
        actual: 'many',
      }),
    ]);
  });

  it('names a break of an inferred schema inferred-shape, of a documented one schema', () => {
    const record = { data: [{ orderableId: 'LT1#PBF', BOPN: 7 }], pagination: page().pagination };
    // A part's `BOPN` name is our reading of "exact property name not shown"; the packages item is stated.
    const inferred = checkResponse(
      validators,
      contract.operation('listProductParts'),
      response({ body: { kind: 'json', value: record } }),
    );
    expect(inferred).toContainEqual(
      expect.objectContaining({
        rule: 'inferred-shape',
        pointer: '/data/0/BOPN',
        source: 'inferred',
        actual: 7,
      }),
    );
    expect(new Set(inferred.map((f) => `${f.rule}:${f.source}`))).toEqual(
      new Set(['inferred-shape:inferred']),
    );
    const documented = checkResponse(
      validators,
      listPackages,
      response({ body: { kind: 'json', value: { ...record, data: [{ packageCode: 7 }] } } }),
    );
    const reference = checkResponse(
      validators,
      contract.operation('listProductParts'),
      response({
        body: {
          kind: 'json',
          value: { ...record, data: [{ orderableId: 'LT1#PBF', genericId: 7 }] },
        },
      }),
    );
    expect(reference).toContainEqual(
      expect.objectContaining({
        rule: 'schema',
        pointer: '/data/0/genericId',
        source: 'reference',
        actual: 7,
      }),
    );
    expect(documented).toContainEqual(
      expect.objectContaining({
        rule: 'schema',
        pointer: '/data/0/packageCode',
        source: 'documented',
        actual: 7,
      }),
    );
  });

  it('one schema finding per rule and pointer pattern, with the count of places', () => {
    const data = Array.from({ length: 50 }, () => ({ packageCode: 7 }));
    const found = checkResponse(
      validators,
      listPackages,
      response({ body: { kind: 'json', value: { ...page(), data } } }),
    ).filter((f) => f.pointer.endsWith('/packageCode'));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ rule: 'schema', pointer: '/data/0/packageCode', count: 50 });
    expect(found[0].message).toMatch(
      /and 49 more place\(s\) of the pattern \/data\/\*\/packageCode/,
    );
  });

  it(`at most ${MAX_BODY_FINDINGS} schema findings and ${MAX_UNDECLARED_PATTERNS} undeclared patterns per body, the rest counted`, () => {
    const record: Record<string, unknown> = { packageCode: 'P1' };
    for (let i = 0; i < 1000; i++) record[`vendor${i}`] = i;
    const found = checkResponse(
      validators,
      listPackages,
      response({ body: { kind: 'json', value: { ...page(), data: [record, record] } } }),
      { undeclaredFields: true },
    );
    const undeclared = found.filter((f) => f.kind === 'undeclared');
    expect(undeclared).toHaveLength(MAX_UNDECLARED_PATTERNS + 1);
    expect(undeclared.at(-1)).toMatchObject({ count: 2 * (1000 - MAX_UNDECLARED_PATTERNS) });
    expect(undeclared[0]).toMatchObject({ pointer: '/data/0/vendor0', count: 2 });
  });

  it('a 100,000-character name is cut in a schema finding', () => {
    const name = 'n'.repeat(100_000);
    const record = { orderableId: 'O1', distiInventory: { value: { [name]: 'not an object' } } };
    const found = checkResponse(
      validators,
      contract.operation('listProductParts'),
      response({ body: { kind: 'json', value: { ...page(), data: [record] } } }),
    ).filter((f) => f.rule === 'schema');
    expect(found.map((f) => f.pointer)).toContainEqual(
      expect.stringMatching(/^\/data\/0\/distiInventory\/value\/n+…\(100000 chars\)$/),
    );
    for (const f of found) expect(f.pointer.length + f.message.length).toBeLessThan(1000);
  });

  it('undeclared fields only when asked, as undeclared findings', () => {
    const body = { ...page(), meta: { took: 1 } };
    expect(
      checkResponse(validators, listPackages, response({ body: { kind: 'json', value: body } })),
    ).toEqual([]);
    expect(
      checkResponse(validators, listPackages, response({ body: { kind: 'json', value: body } }), {
        undeclaredFields: true,
      }),
    ).toEqual([
      {
        kind: 'undeclared',
        rule: 'undeclared-field',
        pointer: '/meta',
        expected: 'only fields the document declares',
        actual: { took: 1 },
        message: '/meta is not declared by the document (1 in this body)',
        count: 1,
        source: listPackages.responses.get('200')!.source,
      },
    ]);
  });

  it('checks only headers for HEAD and for bodies not read', () => {
    const broken: ResponseBody = { kind: 'json', value: { nonsense: true } };
    expect(
      rules(response({ method: 'HEAD', body: broken, headers: { 'content-type': null } })),
    ).toEqual([]);
    expect(rules(response({ body: { kind: 'none' }, headers: { 'content-type': null } }))).toEqual(
      [],
    );
    expect(rules(response({ body: { kind: 'too-large' } }))).toEqual([]);
    expect(rules(response({ method: 'HEAD', headers: { 'x-ratelimit-limit': 'many' } }))).toEqual([
      'rate-limit-headers',
    ]);
  });

  it('takes a file download as declared (not JSON) and checks its media type', () => {
    const download = contract.operation('downloadDocument');
    const declared = download.responses.get('200')!.contentTypes;
    expect(declared.some(isJsonMediaType)).toBe(false);
    const headers = {
      'content-type': declared[0],
      'content-disposition': 'attachment; filename="d.pdf"',
      'content-length': '10',
    };
    const ok = checkResponse(
      validators,
      download,
      response({ headers, body: { kind: 'streamed' } }),
    ).filter((f) => f.rule === 'content-type');
    expect(ok).toEqual([]);
    const wrong = checkResponse(
      validators,
      download,
      response({
        headers: { ...headers, 'content-type': 'application/json' },
        body: { kind: 'streamed' },
      }),
    );
    expect(wrong.map((f) => f.rule)).toContain('content-type');
  });
});

describe('media types', () => {
  it('strips parameters and case, and knows JSON with suffixes', () => {
    expect(mediaTypeOf('Application/JSON; charset=utf-8')).toBe('application/json');
    expect(mediaTypeOf(null)).toBe('');
    expect(isJsonMediaType('application/problem+json')).toBe(true);
    expect(isJsonMediaType('application/jsonp')).toBe(false);
    expect(isJsonMediaType('text/plain')).toBe(false);
  });
});
