/**
 * @module console-admin.test
 * The admin endpoints the QA console stands on, in process: the page and its files without the
 * token (everything else with it); the catalogue read from the contract (offset offered, page
 * not; only declared statuses); `POST /stubs` with `dryRun` judging without storing; the journal's
 * long poll; the per-key limits agreeing with the 429 a request gets; the journal naming the fault
 * that answered; the dataset's answer to a match; a record fetched and checked; CSP reports counted
 * and bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockApp } from '../app.js';
import { call, DEMO, testApp } from '../../testing/mock-app.js';
import { MAX_REPORT_BYTES } from './csp-reports.js';

const TOKEN = 'console-unit-token';
let app: MockApp;
const admin = (path: string, body?: unknown, method?: string) =>
  call(app, `/__mock${path}`, {
    key: null,
    headers: { 'x-mock-admin-token': TOKEN },
    body,
    method,
  });

beforeAll(async () => {
  app = await testApp({ adminToken: TOKEN });
});
afterAll(() => app.state.stores.close());

describe('the console page', () => {
  it('is served without the token, under a CSP that reports; the rest of /__mock still asks for it', async () => {
    const page = await call(app, '/__mock/console', { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(
      /script-src 'self';.*connect-src 'self';.*report-uri \/__mock\/console\/csp-report/,
    );
    expect(page.text).not.toMatch(/<script>|\son[a-z]+=|style=/i);
    for (const asset of ['console.js', 'console.css', 'icon.svg'])
      expect((await call(app, `/__mock/console/assets/${asset}`, { key: null })).status).toBe(200);
    for (const path of ['/console/catalogue', '/requests/poll', '/limits', '/console/csp-reports'])
      expect((await call(app, `/__mock${path}`, { key: null })).status, path).toBe(401);
  });

  it('counts CSP reports and refuses one larger than its bound', async () => {
    const report = { 'csp-report': { 'violated-directive': 'script-src' } };
    const sent = await call(app, '/__mock/console/csp-report', { key: null, body: report });
    expect(sent.status).toBe(204);
    const big = 'x'.repeat(MAX_REPORT_BYTES + 1);
    expect((await call(app, '/__mock/console/csp-report', { key: null, body: big })).status).toBe(
      413,
    );
    const read = await admin('/console/csp-reports');
    expect(read.body.count).toBe(1);
    expect(JSON.parse(read.body.reports[0])).toEqual(report);
  });

  it('the script writes text only: no HTML sink, no eval', async () => {
    const script = (await call(app, '/__mock/console/assets/console.js', { key: null })).text;
    expect(script).not.toMatch(
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setAttribute\('on/,
    );
  });
});

describe('the catalogue', () => {
  it("offers each operation's own parameters and only the statuses it declares", async () => {
    const { body } = await admin('/console/catalogue');
    const ids = body.operations.map((op: { operationId: string }) => op.operationId);
    expect(ids).toEqual(app.state.contract.operations.map((op) => op.operationId));
    const list = body.operations.find(
      (op: { operationId: string }) => op.operationId === 'listProducts',
    );
    const names = list.fields.map((f: { name: string }) => f.name);
    expect(names).toContain('offset');
    expect(names).not.toContain('page');
    expect(list.fields.find((f: { name: string }) => f.name === 'offset')).toMatchObject({
      in: 'query',
      type: 'integer',
      offsetUnit: 'page',
    });
    expect(list.statuses).toContain(500);
    expect(list.statuses).not.toContain(418);
    expect(list.statuses).toEqual(
      [...app.state.contract.operation('listProducts').responses.keys()].map(Number),
    );
    expect(body.keyHeader).toBe('x-api-key');
    expect(body.families.map((f: { family: string }) => f.family)).toContain('products');
  });
});

describe('POST /__mock/stubs with dryRun', () => {
  const stub = (patch: unknown, dryRun: unknown = true) =>
    admin('/stubs', { match: { operationId: 'getProduct' }, patch, dryRun });

  it('names each refusal by field, pointer, rule and kind, and stores nothing', async () => {
    const refused = await stub({ images: 'none' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ dryRun: true, ok: false, warnings: [] });
    expect(refused.body.refusals).toContainEqual(
      expect.objectContaining({ field: '/patch', pointer: '/images', source: 'documented' }),
    );
    const accepted = await stub({ images: [] });
    expect(accepted.body).toMatchObject({ dryRun: true, ok: true, refusals: [] });
    expect((await admin('/stubs')).body.stubs).toEqual([]);
  });

  it('refuses a dryRun that is not a boolean, and stores as usual with dryRun false', async () => {
    const bad = await stub({ images: [] }, 'yes');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('/dryRun');
    expect((await stub({ images: [] }, false)).status).toBe(201);
    await admin('/stubs', undefined, 'DELETE');
  });
});

describe('GET /__mock/requests/poll', () => {
  it('answers what is newer than its cursor, waits for the next request, and says when the cursor is gone', async () => {
    await admin('/requests', undefined, 'DELETE');
    await call(app, '/products?offset=0');
    const first = await admin('/requests/poll?waitMs=0');
    expect(first.body.requests.map((r: { path: string }) => r.path)).toEqual([
      '/web-data/v1/products?offset=0',
    ]);
    const cursor = encodeURIComponent(first.body.cursor);
    const none = await admin(`/requests/poll?waitMs=0&after=${cursor}`);
    expect(none.body).toMatchObject({ requests: [], gap: false, cursor: first.body.cursor });
    const held = admin(`/requests/poll?waitMs=5000&after=${cursor}`);
    await call(app, '/products?offset=1');
    const next = await held;
    expect(next.body.requests.map((r: { path: string }) => r.path)).toEqual([
      '/web-data/v1/products?offset=1',
    ]);
    const gone = await admin('/requests/poll?waitMs=0&after=nothing%40here');
    expect(gone.body.gap).toBe(true);
    expect(gone.body.requests).toHaveLength(2);
    expect((await admin('/requests/poll?waitMs=20001')).status).toBe(400);
  });
});

describe('the journal names the fault that answered', () => {
  it('armed, or asked by Prefer', async () => {
    await admin('/requests', undefined, 'DELETE');
    await admin('/faults', { match: { operationId: 'listPackages' }, count: 1, status: 500 });
    expect((await call(app, '/packages')).status).toBe(500);
    expect((await call(app, '/packages', { headers: { prefer: 'code=500' } })).status).toBe(500);
    expect((await call(app, '/packages')).status).toBe(200);
    const [plain, preferred, armed] = (await admin('/requests')).body.requests;
    expect(armed.fault).toEqual({ by: 'armed', action: { status: 500 } });
    expect(preferred.fault).toEqual({ by: 'prefer', action: { status: 500 } });
    expect(plain.fault).toBeUndefined();
  });
});

describe('GET /__mock/limits', () => {
  it("shows a throttled key's Retry-After as the 429 says it, and its window reset by the clock", async () => {
    await admin('/rate-limits/reset', {});
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 25 && !refused; i++) {
      const res = await call(app, '/packages', { key: DEMO.lowTier });
      if (res.status === 429) refused = res;
    }
    const retryAfter = Number(refused?.headers.get('retry-after'));
    const view = (await admin('/limits')).body;
    const low = view.keys.find((k: { name: string }) => k.name === 'demo-low-tier');
    expect(low.tier).toBe('trial');
    expect(low.next).toEqual({
      refused: true,
      kind: 'requests per minute',
      retryAfterSeconds: retryAfter,
    });
    expect(low.windows[0]).toMatchObject({
      kind: 'requests per minute',
      limit: 20,
      used: 20,
      left: 0,
    });
    expect(Date.parse(low.windows[0].resetsAt)).toBeGreaterThan(Date.parse(view.now));
    await admin('/clock/advance', { seconds: 60 });
    const after = (await admin('/limits')).body.keys.find(
      (k: { name: string }) => k.name === 'demo-low-tier',
    );
    expect(after.next.refused).toBe(false);
    expect(after.windows[0]).toMatchObject({ used: 0, left: 20, resetsAt: null });
    expect((await call(app, '/packages', { key: DEMO.lowTier })).status).toBe(200);
  });
});

describe('answers and records for the editors', () => {
  it("gives the dataset's answer to a match, and a record as the API serves it, checked without storing", async () => {
    const list = await call(app, '/products?limit=1');
    const productId = list.body.data[0].productId as string;
    const answer = await admin('/console/answer', {
      match: { operationId: 'getProduct', params: { product_id: productId } },
    });
    expect(answer.body).toMatchObject({ status: 200, body: { productId } });
    const found = await admin(`/console/records/products/${encodeURIComponent(productId)}`);
    expect(found.body).toMatchObject({
      family: 'products',
      idField: 'productId',
      record: { productId },
    });
    const bad = await admin('/console/records/products/check', { ...found.body.record, title: 5 });
    expect(bad.body).toMatchObject({ dryRun: true, ok: false });
    expect(bad.body.refusals.map((r: { pointer: string }) => r.pointer)).toContain('/title');
    const good = await admin('/console/records/products/check', found.body.record);
    expect(good.body).toMatchObject({ ok: true, refusals: [] });
    expect((await admin('/records')).body.edits).toEqual([]);
    expect((await admin('/console/records/nothing/1')).status).toBe(404);
    expect((await admin('/console/records/products/NO-SUCH-PRODUCT')).status).toBe(404);
  });
});
