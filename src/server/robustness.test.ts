/**
 * @module server/robustness.test
 * Property-based robustness of the mock (fast-check, seeded): requests generated from the
 * document's own operations and parameter schemas, then spoiled every way a client can spoil them
 * (wrong types, unknown and repeated parameters, odd and broken percent-encoding, huge values and
 * bodies, deep JSON, wrong content types and methods, unknown paths, junk `Prefer`). Whatever
 * comes in: never a 5xx, never a hang, every error a JSON `{error}` that names the problem, and a
 * body that matches the document whenever the status is one the operation declares.
 * Replay a failure with ROBUSTNESS_SEED=<the seed its name gives>; widen with ROBUSTNESS_RUNS.
 */
import { Agent, request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contract, Operation, Parameter, Schema, Validators } from '../contract/index.js';
import type { Dataset } from '../dataset/dataset.js';
import { startMockServer, type RunningServer } from './listen.js';
import { DEFAULT_MAX_BODY_BYTES } from './options.js';
import { DEMO, sharedDataset, testApp, validatorsFor } from '../testing/mock-app.js';
import type { MockApp } from './app.js';

const SEED = Number(process.env.ROBUSTNESS_SEED ?? 20_260_805);
const RUNS_IN_PROCESS = Number(process.env.ROBUSTNESS_RUNS ?? 1_500);
const RUNS_HTTP = Math.max(1, Math.round(RUNS_IN_PROCESS / 8));
/** A request that takes longer than this is a hang. */
const REQUEST_TIMEOUT_MS = 5_000;
/** Node refuses request lines plus headers above 16 KiB with its own bare 431; HTTP samples stay below. */
const HTTP_MAX_REQUEST_LINE = 8_000;
const OVERLONG = { min: 5_000, max: 40_000 };
const BASE = '/web-data/v1';
const ORIGIN = 'http://mock.test';

/** In the name of the generated tests, so a failure names the seed to replay (and a green run prints nothing). */
const RUNS = `fast-check seed ${SEED}, ${RUNS_IN_PROCESS} in-process and ${RUNS_HTTP} HTTP runs; ROBUSTNESS_SEED / ROBUSTNESS_RUNS to change`;

interface RawRequest {
  method: string;
  /** Path and query exactly as sent on the wire (below the origin). */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** The operation (id) the request was generated from, when its method and path were kept. */
  opId?: string;
  /** Why this request was generated, for failure messages. */
  why: string;
}

interface Answer {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

// ---------------------------------------------------------------------------------------------
// Generators, all driven by the document's operations and parameter schemas.

/** Real identifiers per path parameter, so valid lookups reach the handlers. */
function knownIds(dataset: Dataset): Record<string, string[]> {
  const first = (collection: { size: number; id(i: number): string }, n = 5) =>
    Array.from({ length: Math.min(n, collection.size) }, (_, i) => collection.id(i));
  const dcpIds: string[] = [];
  for (let i = 0; i < dataset.documents.size && dcpIds.length < 5; i++) {
    const dcp = dataset.documents.record(i).dcpDocumentId;
    if (typeof dcp === 'string') dcpIds.push(dcp);
  }
  return {
    product_id: first(dataset.products),
    orderable_id: first(dataset.productParts),
    productPartAttributeId: first(dataset.attributes),
    agile_id: first(dataset.documents),
    dcp_id: dcpIds,
    board_kit_id: first(dataset.boardsKits),
    package_code: first(dataset.packages),
    software_tool_id: first(dataset.softwareTools),
  };
}

/** Raw strings that are not valid percent-encoding, or decode to something odd. */
const ODD_ESCAPES = [
  '%',
  '%%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%FF%FE',
  '%00',
  '%0A',
  '%2F',
  '%23',
  '%3F',
  '%26',
  '%3D',
  '+',
  '%2B',
  '%u0041',
  '%e2%82%ac',
];
const JUNK_VALUES = [
  '',
  'abc',
  '-1',
  '0',
  '1.5',
  '1e400',
  '99999999999999999999',
  'NaN',
  'Infinity',
  'true',
  'null',
  'undefined',
  ',',
  ',,',
  'asc,,desc',
  ' ',
  '%20',
  '[]',
  '{}',
  '0x10',
  '+1',
];
const UNKNOWN_NAMES = [
  'foo',
  'LIMIT',
  'Limit',
  'limit[]',
  'limit%5B%5D',
  'page',
  'api_key',
  'x-api-key',
  'sort',
  'offset%20',
  '%zz',
  '',
  '__proto__',
  'constructor',
  'hasOwnProperty',
];

const encode = (s: string) => encodeURIComponent(s);
/** JSON nesting depths; the deepest stay under the 1 MiB body limit ('{"a":' is 5 bytes a level). */
const DEPTHS = [10, 1_000, 10_000, 150_000];
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const overlong = fc.integer(OVERLONG).map((n) => 'a'.repeat(n));
const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });

/** A valid raw value for a query parameter, read from its schema. */
function validValue(p: Parameter): fc.Arbitrary<string> {
  const s = p.schema;
  if (p.commaJoined) {
    const items = ((s.items as Schema).enum ?? []) as string[];
    return fc.subarray(items, { minLength: 1 }).map((a) => a.map(encode).join(','));
  }
  if (Array.isArray(s.enum))
    return fc.constantFrom(...(s.enum as unknown[]).map((v) => encode(String(v))));
  switch (s.type) {
    case 'integer':
      return fc
        .integer({
          min: (s.minimum as number | undefined) ?? -1_000,
          max: Math.min((s.maximum as number | undefined) ?? 1_000_000, 1_000_000),
        })
        .map(String);
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }).map(String);
    case 'boolean':
      return fc.constantFrom('true', 'false');
    default:
      if (s.format === 'date')
        return fc
          .date({ min: new Date('1990-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      return text.map(encode);
  }
}

/** A raw value that breaks the parameter's rules (or the encoding). */
const invalidValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...JUNK_VALUES.map(encode), ...ODD_ESCAPES), weight: 4 },
  { arbitrary: overlong, weight: 1 },
  { arbitrary: text.map(encode), weight: 2 },
);

function queryPairs(op: Operation): fc.Arbitrary<[string, string][]> {
  const declared = op.parameters.filter((p) => p.in === 'query');
  const pair = fc.oneof(
    ...(declared.length > 0
      ? [
          {
            arbitrary: fc
              .constantFrom(...declared)
              .chain((p) => validValue(p).map((v): [string, string] => [p.name, v])),
            weight: 6,
          },
          {
            arbitrary: fc
              .constantFrom(...declared)
              .chain((p) => invalidValue.map((v): [string, string] => [p.name, v])),
            weight: 2,
          },
        ]
      : []),
    {
      arbitrary: fc.tuple(
        fc.constantFrom(...UNKNOWN_NAMES),
        fc.oneof(invalidValue, text.map(encode)),
      ),
      weight: 1,
    },
    { arbitrary: fc.tuple(fc.constantFrom(...ODD_ESCAPES), fc.constant('1')), weight: 1 },
  );
  // Repeating one pair tests "given more than once".
  return fc
    .tuple(fc.array(pair, { maxLength: 5 }), fc.boolean())
    .map(([pairs, repeat]) => (repeat && pairs.length > 0 ? [...pairs, pairs[0]] : pairs));
}

/** A raw path segment for a path parameter. Dot segments are left to the unknown-path generator (URLs resolve them away). */
function pathValue(ids: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...(ids.length > 0 ? ids : ['none'])).map(encode), weight: 5 },
    { arbitrary: text.map(encode), weight: 3 },
    { arbitrary: fc.constantFrom(...ODD_ESCAPES), weight: 2 },
    { arbitrary: fc.constantFrom('%23', 'A%23B', 'x%2Fy', '%C3%A9', '%F0%9F%98%80'), weight: 1 },
    { arbitrary: overlong, weight: 1 },
  );
}

/** Prefer values that must never cause a 5xx: unknown, malformed or undeclared. Real faults (delay, reset, slow) are not junk. */
const junkPrefer: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'code=abc',
    'code=',
    'code=99',
    'code=600',
    'code=4xx',
    'code=418',
    'code=302',
    'code=1e3',
    'delay=abc',
    'delay=-1',
    'delay=1.5',
    'delay=99999999',
    'slow=0',
    'slow=abc',
    'return=minimal',
    ';;;',
    ',',
    '=',
    'code=200',
    'CODE=abc;code=',
    'return=representation; foo',
  ),
  fc.string({ maxLength: 60 }).filter((s) => !/reset|truncate|slow|delay|code/i.test(s)),
);

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'json',
  '',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/problem+json',
  'application/xml',
];

/** Bodies for POST operations: plausible, arbitrary, broken, deep or huge. */
function bodyFor(
  op: Operation,
  dataset: Dataset,
  ids: Record<string, string[]>,
): fc.Arbitrary<string> {
  const numbers = dataset.competitorPartNumbers.slice(0, 50);
  const plausible =
    op.operationId === 'crossReferenceProductParts'
      ? fc
          .array(fc.oneof(fc.constantFrom(...numbers), text), { minLength: 0, maxLength: 210 })
          .map((partNumbers) => JSON.stringify({ partNumbers }))
      : fc
          .record({
            productId: fc.oneof(fc.constantFrom(...ids.product_id), text),
            filters: fc.array(
              fc.record({
                attribute: fc.oneof(fc.constantFrom(...ids.productPartAttributeId), text),
                operator: fc.constantFrom('eq', 'gt', 'gte', 'lt', 'lte', 'range', 'like'),
                value: fc.oneof(
                  fc.integer(),
                  fc.double({ noNaN: true, noDefaultInfinity: true }),
                  text,
                  fc.tuple(fc.integer(), fc.integer()),
                  fc.constant(null),
                ),
              }),
              { maxLength: 4 },
            ),
            limit: fc.option(fc.integer({ min: -5, max: 2000 }), { nil: undefined }),
            offset: fc.option(fc.integer({ min: -5, max: 100 }), { nil: undefined }),
          })
          .map((b) => JSON.stringify(b));
  return fc.oneof(
    { arbitrary: plausible, weight: 6 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        '{',
        '{"partNumbers": [',
        'nul',
        '',
        '   ',
        '\u0000',
        '{"a":1,}',
        "{'a':1}",
        '[1,2',
        '"\\uD800"',
        '{"partNumbers":["\\u0000"]}',
        '1e999999',
      ),
      weight: 2,
    },
    { arbitrary: fc.constantFrom(...DEPTHS).map(deepArray), weight: 1 },
    { arbitrary: fc.constantFrom(...DEPTHS).map(deepObject), weight: 1 },
    {
      arbitrary: fc.constant(
        JSON.stringify({ partNumbers: Array.from({ length: 60_000 }, (_, i) => `P${i}`) }),
      ),
      weight: 1,
    },
  );
}

const OTHER_METHODS = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'POST', 'GET'];

function operationRequest(
  ops: Operation[],
  dataset: Dataset,
  ids: Record<string, string[]>,
): fc.Arbitrary<RawRequest> {
  return fc.constantFrom(...ops).chain((op) => {
    const segments = op.path.split('/').map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment)?.[1];
      return param ? pathValue(ids[param] ?? []) : fc.constant(segment);
    });
    const keys = fc.oneof(
      { arbitrary: fc.constant<string | undefined>(DEMO.unlimited), weight: 12 },
      fc.constantFrom<string | undefined>(
        undefined,
        'not-a-key',
        DEMO.expired,
        DEMO.staging,
        DEMO.noDocuments,
        DEMO.lowTier,
        'a'.repeat(5_000),
      ),
    );
    const body =
      op.method === 'post'
        ? fc.option(bodyFor(op, dataset, ids), { nil: undefined, freq: 10 })
        : fc.constant(undefined);
    const contentType = fc.oneof(
      { arbitrary: fc.constant('application/json'), weight: 8 },
      fc.constantFrom(...CONTENT_TYPES),
      fc.constant(undefined),
    );
    // Mostly the operation's own method; sometimes HEAD on a GET, sometimes a method the path does not allow.
    const method = fc.oneof(
      { arbitrary: fc.constant(op.method.toUpperCase()), weight: 10 },
      fc.constantFrom(...(op.method === 'get' ? ['HEAD', ...OTHER_METHODS] : OTHER_METHODS)),
    );
    return fc
      .record({
        segments: fc.tuple(...segments),
        query: queryPairs(op),
        key: keys,
        prefer: fc.option(junkPrefer, { nil: undefined, freq: 6 }),
        body,
        contentType,
        method,
        separator: fc.constantFrom('&', '&', '&', '&&', ';'),
      })
      .map(
        ({
          segments: parts,
          query,
          key,
          prefer,
          body: payload,
          contentType: type,
          method: m,
          separator,
        }) => {
          const search = query.map(([n, v]) => `${n}=${v}`).join(separator);
          const headers: Record<string, string> = { accept: 'application/json' };
          if (key !== undefined) headers['x-api-key'] = key;
          if (prefer !== undefined) headers.prefer = prefer;
          const sendsBody = payload !== undefined && m !== 'GET' && m !== 'HEAD';
          if (sendsBody && type !== undefined) headers['content-type'] = type;
          const kept = m === op.method.toUpperCase() || (m === 'HEAD' && op.method === 'get');
          return described({
            method: m,
            target: `${BASE}${parts.join('/')}${search ? `?${search}` : ''}`,
            headers,
            body: sendsBody ? payload : undefined,
            opId: kept ? op.operationId : undefined,
            why: `${op.operationId}${kept ? '' : ` with ${m}`}`,
          });
        },
      );
  });
}

/** Paths no operation has, including ones URL resolution rewrites. */
const unknownPathRequest: fc.Arbitrary<RawRequest> = fc
  .record({
    path: fc.oneof(
      fc.constantFrom(
        '/',
        '/web-data',
        '/web-data/v2/products',
        BASE,
        `${BASE}/`,
        `${BASE}/products/`,
        `${BASE}/products/x/y`,
        '/WEB-DATA/v1/products',
        `${BASE}//products`,
        '/web-data%2Fv1/products',
        `${BASE}/%zz`,
        `${BASE}/products/..`,
        `${BASE}/products/%2e%2e/%2e%2e/x`,
        `${BASE}/documents/agile-id`,
        `${BASE}/documents/download`,
        '/__mock/state',
        '/staging/web-data/v1/products',
      ),
      fc
        .array(text.map(encode), { minLength: 1, maxLength: 4 })
        .map((segments) => `${BASE}/${segments.join('/')}`),
    ),
    method: fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'),
  })
  .map(({ path, method }) =>
    described({
      method,
      target: path,
      headers: { 'x-api-key': DEMO.unlimited },
      why: 'unknown path',
    }),
  );

// ---------------------------------------------------------------------------------------------
// Sending and checking.

/** Makes fast-check print a counterexample as one readable line (bodies can be a megabyte). */
function described(req: RawRequest): RawRequest {
  return Object.assign(req, { [fc.toStringMethod]: () => describeRequest(req) });
}

async function withTimeout<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: ${what}`)),
      REQUEST_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function describeRequest(req: RawRequest): string {
  const target =
    req.target.length > 300
      ? `${req.target.slice(0, 300)}... (${req.target.length} chars)`
      : req.target;
  const body =
    req.body === undefined ? '' : ` body(${req.body.length} chars): ${req.body.slice(0, 120)}`;
  const headers = Object.entries(req.headers)
    .filter(([name]) => name !== 'x-api-key')
    .map(([n, v]) => `${n}: ${v.slice(0, 80)}`)
    .join('; ');
  return `[${req.why}] ${req.method} ${target} {${headers}}${body}`;
}

async function inProcess(app: MockApp, req: RawRequest): Promise<Answer> {
  const res = await app.request(`${ORIGIN}${req.target}`, {
    method: req.method,
    headers: req.headers,
    body: req.body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** One request over a socket: a fresh connection by default (see the keep-alive known-bug test for reuse). */
function overHttp(origin: string, req: RawRequest, agent: Agent | false = false): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        agent,
        hostname,
        port,
        method: req.method,
        path: req.target,
        headers: {
          ...req.headers,
          ...(req.body !== undefined
            ? { 'content-length': String(Buffer.byteLength(req.body)) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: {
              get: (name) => (res.headers[name] === undefined ? null : String(res.headers[name])),
            },
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

/**
 * The invariants every answer keeps; throws (via expect) with the request described. A forced 400
 * (`Prefer: code=400`) names the QA scenario rather than a parameter, so it skips that one check.
 */
function checkAnswer(
  contract: Contract,
  validators: Validators,
  req: RawRequest,
  answer: Answer,
  forced = false,
): void {
  const where = `${describeRequest(req)} -> ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, where).toBeGreaterThanOrEqual(200);
  expect(answer.status, where).toBeLessThan(500);
  if (req.method === 'HEAD') return;
  if (answer.status >= 400) {
    expect(answer.headers.get('content-type') ?? '', where).toMatch(/^application\/json/);
    const body = JSON.parse(answer.text) as { error?: unknown };
    expect(typeof body.error === 'string' && body.error.length > 0, where).toBe(true);
    if (answer.status === 400) {
      // The reference's plain envelope: one line that names where (parameter, header or body pointer) and the rule.
      expect(Object.keys(body), where).toEqual(['error']);
      if (!forced)
        expect(
          body.error as string,
          `the error names no parameter, header or body pointer: ${where}`,
        ).toMatch(/(query|path|header) "[^"]*"|body at "[^"]*"/);
      expect(body.error as string, `the error names no rule: ${where}`).toMatch(/\(rule: /);
    }
    if (answer.status === 405) expect(answer.headers.get('allow'), where).toBeTruthy();
  }
  const op = req.opId === undefined ? undefined : contract.operation(req.opId);
  const declared = op && validators.responseFor(op, answer.status);
  if (!op || !declared) return;
  if (declared.jsonSchema)
    expect(validators.checkResponseBody(op, answer.status, JSON.parse(answer.text)), where).toEqual(
      [],
    );
  expect(
    validators.checkResponseHeaders(op, answer.status, (name) => answer.headers.get(name)),
    where,
  ).toEqual([]);
}

// ---------------------------------------------------------------------------------------------

describe(`robustness: generated requests (${RUNS})`, async () => {
  const { contract, validators } = await validatorsFor('unreleased');
  const dataset = sharedDataset();
  const ids = knownIds(dataset);
  const app = await testApp({ apiVersion: 'unreleased' });
  const anyRequest = fc.oneof(
    { arbitrary: operationRequest(contract.operations, dataset, ids), weight: 9 },
    { arbitrary: unknownPathRequest, weight: 1 },
  );

  it('in process (app.request): never a 5xx or a hang; errors are JSON naming the problem; declared statuses match the document', async () => {
    await fc.assert(
      fc.asyncProperty(anyRequest, async (req) => {
        checkAnswer(
          contract,
          validators,
          req,
          await withTimeout(describeRequest(req), inProcess(app, req)),
        );
      }),
      { seed: SEED, numRuns: RUNS_IN_PROCESS, endOnFailure: true },
    );
  }, 60_000);

  describe('over real HTTP', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startMockServer({
        apiVersion: 'unreleased',
        validateResponses: true,
        datasets: { production: dataset },
      });
    });
    afterAll(() => server?.close());

    it('a smaller sample keeps the same invariants through a socket', async () => {
      const standard = anyRequest.filter(
        (req) =>
          req.target.length < HTTP_MAX_REQUEST_LINE &&
          (req.headers['x-api-key']?.length ?? 0) < HTTP_MAX_REQUEST_LINE,
      );
      await fc.assert(
        fc.asyncProperty(standard, async (req) => {
          checkAnswer(
            contract,
            validators,
            req,
            await withTimeout(describeRequest(req), overHttp(server.origin, req)),
          );
        }),
        { seed: SEED, numRuns: RUNS_HTTP, endOnFailure: true },
      );
    }, 60_000);

    // A refused body (413 from the body limit, 400 for a non-JSON content-type) must not leave the
    // keep-alive connection unusable: the body is drained, or the 413 says `Connection: close`.
    it('after a refused body, the next request on the same keep-alive connection is answered', async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const op = contract.operation('crossReferenceProductParts');
        const refused: RawRequest[] = [
          {
            method: 'POST',
            target: `${BASE}${op.path}`,
            headers: { 'x-api-key': DEMO.unlimited, 'content-type': 'application/json' },
            body: 'x'.repeat(2 * DEFAULT_MAX_BODY_BYTES),
            opId: op.operationId,
            why: 'over the limit',
          },
          {
            method: 'POST',
            target: `${BASE}${op.path}`,
            headers: { 'x-api-key': DEMO.unlimited, 'content-type': 'text/plain' },
            body: 'x'.repeat(DEFAULT_MAX_BODY_BYTES / 2),
            opId: op.operationId,
            why: 'not JSON',
          },
        ];
        const next: RawRequest = {
          method: 'GET',
          target: `${BASE}/products?limit=1`,
          headers: { 'x-api-key': DEMO.unlimited },
          why: 'next on the same connection',
        };
        for (const req of refused) {
          expect(
            (await withTimeout(describeRequest(req), overHttp(server.origin, req, agent))).status,
          ).toBeGreaterThanOrEqual(400);
          expect(
            (await withTimeout(describeRequest(next), overHttp(server.origin, next, agent))).status,
          ).toBe(200);
        }
      } finally {
        agent.destroy();
      }
    });

    it('refuses a body over the limit sent without content-length (chunked) with 413 JSON', async () => {
      const op = contract.operation('crossReferenceProductParts');
      const answer = await withTimeout(
        'chunked 2 MiB body',
        new Promise<Answer>((resolve, reject) => {
          const { hostname, port } = new URL(server.origin);
          const outgoing = httpRequest(
            {
              hostname,
              port,
              method: 'POST',
              path: `${BASE}${op.path}`,
              headers: {
                'x-api-key': DEMO.unlimited,
                'content-type': 'application/json',
                'transfer-encoding': 'chunked',
              },
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () =>
                resolve({
                  status: res.statusCode ?? 0,
                  headers: {
                    get: (n) => (res.headers[n] === undefined ? null : String(res.headers[n])),
                  },
                  text: Buffer.concat(chunks).toString(),
                }),
              );
            },
          );
          // The server may answer and close before every chunk is written; that is the point.
          outgoing.on('error', (error: NodeJS.ErrnoException) =>
            error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
          );
          const chunk = `"${'x'.repeat(64 * 1024)}",`;
          outgoing.write('{"partNumbers":[');
          for (let sent = 0; sent < 2 * DEFAULT_MAX_BODY_BYTES; sent += chunk.length)
            outgoing.write(chunk);
          outgoing.end('"y"]}');
        }),
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toEqual({
        error: expect.stringContaining(String(DEFAULT_MAX_BODY_BYTES)),
      });
    });
  });
});

describe('robustness: fixed cases', async () => {
  const { contract, validators } = await validatorsFor('unreleased');
  const app = await testApp({ apiVersion: 'unreleased' });
  const posts = contract.operations.filter((op) => op.method === 'post');

  it.each(posts.map((op) => [op.operationId, op] as const))(
    '%s: a body over 1 MiB gets 413 JSON, malformed JSON gets 400 naming the body',
    async (_id, op) => {
      const huge: RawRequest = {
        method: 'POST',
        target: `${BASE}${op.path}`,
        headers: { 'x-api-key': DEMO.unlimited, 'content-type': 'application/json' },
        body: `"${'x'.repeat(DEFAULT_MAX_BODY_BYTES + 1)}"`,
        opId: op.operationId,
        why: 'over 1 MiB',
      };
      const tooLarge = await inProcess(app, huge);
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.text)).toEqual({ error: expect.any(String) });
      checkAnswer(contract, validators, huge, tooLarge);

      const broken: RawRequest = { ...huge, body: '{"partNumbers": ["A",', why: 'malformed JSON' };
      const bad = await inProcess(app, broken);
      expect(bad.status).toBe(400);
      expect(JSON.parse(bad.text).error).toMatch(/body at "[^"]*".*rule: valid JSON/);
      checkAnswer(contract, validators, broken, bad);
    },
  );

  // Found by this suite: echoing a body nested 10,000+ levels deep once overflowed the stack (a 500).
  it.each(posts.map((op) => [op.operationId, op] as const))(
    '%s: a JSON body nested 100,000 levels deep gets 400, not 500',
    async (_id, op) => {
      for (const body of [deepArray(100_000), deepObject(100_000)]) {
        const req: RawRequest = {
          method: 'POST',
          target: `${BASE}${op.path}`,
          headers: { 'x-api-key': DEMO.unlimited, 'content-type': 'application/json' },
          body,
          opId: op.operationId,
          why: 'deep JSON',
        };
        const answer = await inProcess(app, req);
        expect(answer.status).toBe(400);
        checkAnswer(contract, validators, req, answer);
      }
    },
  );

  it('Prefer: code=<status> forces every declared status of every operation with the declared body', async () => {
    const forced = contract.operations.flatMap((op) =>
      [...op.responses.keys()]
        .filter((s) => /^\d{3}$/.test(s) && s !== '200')
        .map((status) => [op, Number(status)] as const),
    );
    expect(forced.length).toBeGreaterThan(contract.operations.length);
    for (const [op, status] of forced) {
      const req: RawRequest = {
        method: op.method.toUpperCase(),
        target: `${BASE}${op.path.replace(/\{[^}]+\}/g, 'x')}`,
        headers: {
          'x-api-key': DEMO.unlimited,
          prefer: `code=${status}`,
          'content-type': 'application/json',
        },
        body: op.method === 'post' ? '{}' : undefined,
        opId: op.operationId,
        why: `forced ${status}`,
      };
      const answer = await inProcess(app, req);
      expect(answer.status, describeRequest(req)).toBe(status);
      if (status < 500) checkAnswer(contract, validators, req, answer, true);
      else if (req.method !== 'HEAD')
        expect(
          validators.checkResponseBody(op, status, JSON.parse(answer.text)),
          describeRequest(req),
        ).toEqual([]);
    }
  });
});
