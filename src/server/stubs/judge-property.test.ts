/**
 * @module stubs/judge-property.test
 * Issue 36, principle 1 as a property: merge patches, JSON Patches and records drawn at random
 * (`__proto__`, real field names, hrefs, deep nesting among them). Whatever the double accepts,
 * the contract suite's own check functions pass on every operation that then serves it (the
 * response checks, page arithmetic, identifiers equal to the path's, hrefs that lead to a 200);
 * whatever it refuses, the refusal names a pointer. In process; a few dozen runs each.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkResponse,
  collectHrefs,
  isBinding,
  judgeHref,
  judgeIdentifiers,
  judgePage,
  pageOf,
  type Operation,
} from '../../contract/index.js';
import { createMockApp, QaControlError, type MockAppHandle } from '../../index.js';
import { validatorsFor } from '../../testing/mock-app.js';

const TOKEN = 'qa';
const RUNS = 25;
/** How many drawn controls the double accepted: the property is not vacuous. */
let accepted = 0;

/** A refusal names a pointer: `body at "/patch": "/title" ...`, or a record's `"/x" ...`. */
const NAMES_A_POINTER = /"(\/[^"]*)?"/;

/** A JSON value nested `depth` levels deep. */
const nested = (depth: number): unknown => {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

const NAMES = [
  '__proto__',
  'constructor',
  'productId',
  'title',
  'images',
  'relatedProducts',
  'href',
  'additionalDetails',
  'x',
];
const name = fc.constantFrom(...NAMES);
const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom('', 'x', '/products/NOPE', '/product-parts/NOPE', 'a#b'),
);
const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 2 }),
    fc.dictionary(name, tie('v'), { maxKeys: 3 }),
    fc.integer({ min: 20, max: 2000 }).map(nested),
  ),
})).v;
const mergePatchArb = fc.dictionary(name, value, { minKeys: 1, maxKeys: 4 });
const pathArb = fc
  .array(fc.oneof(name, fc.constantFrom('0', '-')), { minLength: 1, maxLength: 3 })
  .map((tokens) => `/${tokens.join('/')}`);
const operationArb = fc.oneof(
  fc.record({ op: fc.constantFrom('add', 'replace', 'test'), path: pathArb, value }),
  fc.record({ op: fc.constant('remove'), path: pathArb }),
  fc.record({ op: fc.constantFrom('copy', 'move'), from: pathArb, path: pathArb }),
);
const jsonPatchArb = fc.array(operationArb, { minLength: 1, maxLength: 3 });

describe('what the double accepts, the suite passes; what it refuses names a pointer', () => {
  let mock: MockAppHandle;
  let operations: readonly Operation[];
  let validators: Awaited<ReturnType<typeof validatorsFor>>['validators'];
  const fetchJson = async (path: string) => {
    const res = await mock.fetch(
      new Request(`${mock.url}${path}`, { headers: { 'x-api-key': mock.keys.fullAccess } }),
    );
    const text = await res.text();
    return { res, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const op = (operationId: string) => operations.find((o) => o.operationId === operationId)!;

  /** The suite's own checks on one answer: every binding finding, as a line. */
  async function suiteFindings(
    operation: Operation,
    path: string,
    params: Record<string, string>,
  ): Promise<string[]> {
    const { res, body } = await fetchJson(path);
    const out: string[] = [];
    for (const f of checkResponse(validators, operation, {
      status: res.status,
      method: 'GET',
      header: (n) => res.headers.get(n),
      body: { kind: 'json', value: body },
    }))
      if (isBinding(f.source)) out.push(`${f.pointer} ${f.message}`);
    if (res.status !== 200) return [...out, `status ${res.status}`];
    const page = pageOf(body);
    if (page) {
      const { limit, total } = page.pagination as Record<string, number>;
      const asked = new URL(`http://x${path}`).searchParams.get('limit');
      for (const j of judgePage(page, {
        offset: 0,
        limit: asked ? Number(asked) : limit,
        total,
      }))
        out.push(`${j.pointer} ${j.message}`);
    }
    for (const j of judgeIdentifiers(operation, params, body)) out.push(j.message);
    for (const href of collectHrefs(body)) {
      const judged = judgeHref(href, operations, mock.url);
      if ('judgement' in judged) out.push(`${href.pointer} ${judged.judgement.message}`);
      else if ((await fetchJson(judged.url.slice(mock.url.length))).res.status !== 200)
        out.push(`${href.pointer} ${href.value} does not resolve`);
    }
    return out;
  }

  beforeAll(async () => {
    mock = await createMockApp({ adminToken: TOKEN });
    ({ validators } = await validatorsFor());
    operations = (await validatorsFor()).contract.operations;
  });

  async function judged(
    add: () => Promise<unknown>,
    served: () => Promise<string[]>,
  ): Promise<void> {
    await mock.qa.reset();
    try {
      await add();
    } catch (error) {
      if (!(error instanceof QaControlError)) throw error;
      expect(error.status).toBe(400);
      expect(error.message).toMatch(NAMES_A_POINTER);
      return;
    }
    accepted++;
    expect(await served()).toEqual([]);
  }

  const productId = () => mock.examples.ids.products[0];
  const productPath = () => `/products/${encodeURIComponent(productId())}`;

  it('merge patches of getProduct', async () => {
    await fc.assert(
      fc.asyncProperty(mergePatchArb, (patch) =>
        judged(
          () => mock.qa.stub({ operationId: 'getProduct', patch }),
          () => suiteFindings(op('getProduct'), productPath(), { product_id: productId() }),
        ),
      ),
      { numRuns: RUNS },
    );
  });

  it('JSON Patches of getProduct and of a list page', async () => {
    await fc.assert(
      fc.asyncProperty(jsonPatchArb, fc.boolean(), (patch, onList) =>
        judged(
          () => mock.qa.stub({ operationId: onList ? 'listPackages' : 'getProduct', patch }),
          () =>
            onList
              ? suiteFindings(op('listPackages'), '/packages', {})
              : suiteFindings(op('getProduct'), productPath(), { product_id: productId() }),
        ),
      ),
      { numRuns: RUNS },
    );
  });

  it('records: a seed package with drawn changes, served by ID and by its list', async () => {
    const [code] = mock.examples.ids.packages;
    const seed = (await fetchJson(`/packages?packageCode=${encodeURIComponent(code)}`)).body as {
      data: Record<string, unknown>[];
    };
    const record = seed.data[0];
    await fc.assert(
      fc.asyncProperty(mergePatchArb, fc.constantFrom('PROP-1', code), (changes, id) => {
        const drawn = JSON.parse(
          JSON.stringify({ ...record, ...changes, packageCode: id }),
        ) as Record<string, unknown>;
        // Spread and JSON.parse both define a drawn `__proto__` as an ordinary member.
        return judged(
          () => mock.qa.records.put('packages', drawn),
          async () => [
            ...(await suiteFindings(op('getPackage'), `/packages/${encodeURIComponent(id)}`, {
              package_code: id,
            })),
            ...(await suiteFindings(
              op('listPackages'),
              `/packages?packageCode=${encodeURIComponent(id)}&limit=100`,
              {},
            )),
          ],
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('accepted some of what was drawn (the property above is not only refusals)', () => {
    expect(accepted).toBeGreaterThan(0);
  });
});
