/**
 * @module scopes/proof/proof-file
 * What each of the eight proof files does (they differ only in their number): on one shared mock,
 * 20 runs in a row, each stubbing the same product its own way, editing the same record, arming a
 * fault on the same operation and advancing its clock by its own amount, then checking that it
 * sees only its own: the stub's title, the record's description, the fault hit once, the clock
 * offset in its journal's times, and a journal of its own requests alone. With
 * `SCOPE_PROOF_OFF=1` each file uses the mock's own controls and the demo key instead of a
 * scope: the files then see each other's state, and the run must fail (proof.test.ts).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { qaControls } from '../../index.js';
import type { Examples, QaControls, QaScope } from '../../api/types.js';

const RUNS = 20;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function defineProofFile(n: number): void {
  const context = inject('scopeProof');
  const origin = context.origins[(n - 1) % context.origins.length];
  const api = `${origin}/web-data/v1`;
  const scoped = process.env.SCOPE_PROOF_OFF !== '1';
  const mock = qaControls({ origin, adminToken: context.adminToken });
  let scope: QaScope | undefined;
  let qa: QaControls | QaScope = mock;
  let key = context.demoKey;
  // The same product and part for every file: the first the mock's /examples.json names.
  let product = '';
  let part = '';

  const get = async (path: string) => {
    const response = await fetch(`${api}${path}`, { headers: { 'x-api-key': key } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    const examples = (await (await fetch(`${origin}/examples.json`)).json()) as Examples;
    product = examples.ids.products[0];
    part = examples.ids.productParts[0];
    if (scoped) {
      scope = await mock.scope();
      qa = scope;
      key = scope.apiKey;
    }
    await fetch(context.barrier);
  });
  afterAll(async () => {
    await scope?.close();
  });

  describe(`proof file ${n} (${scoped ? 'a scope' : 'scopes off'})`, () => {
    for (let run = 1; run <= RUNS; run += 1)
      it(`run ${run} sees only its own stub, record, fault, clock and journal`, async () => {
        const mine = `file ${n} run ${run}`;
        await qa.reset();
        await qa.stub({
          operationId: 'getProduct',
          match: { params: { product_id: product } },
          patch: { title: mine },
        });
        const seed = (await get(`/product-parts/${encodeURIComponent(part)}`)).body;
        await qa.records.put('productParts', { ...seed, description: mine });
        await qa.armFault({ operationId: 'listProducts', status: 500, times: 1 });
        await qa.advanceClock(n * 60);
        await qa.clearJournal();
        // Let the other files' runs interleave with this one.
        await pause(5 + ((n * run) % 7));

        expect((await get(`/products/${encodeURIComponent(product)}`)).body.title).toBe(mine);
        expect((await get(`/product-parts/${encodeURIComponent(part)}`)).body.description).toBe(
          mine,
        );
        expect((await get('/products?limit=1')).status).toBe(500);
        expect((await get('/products?limit=1')).status).toBe(200);
        const journal = await qa.journal();
        expect(journal.map((entry) => entry.operation)).toEqual([
          'listProducts',
          'listProducts',
          'getProductPart',
          'getProduct',
        ]);
        for (const entry of journal) {
          const minutesAhead = (Date.parse(entry.at) - Date.now()) / 60_000;
          expect(Math.round(minutesAhead)).toBe(n);
        }
      });
  });
}
