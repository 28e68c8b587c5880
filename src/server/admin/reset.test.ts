/**
 * @module admin/reset.test
 * One reset between tests: `mock.qa.reset()` (`POST /__mock/reset`) clears stubs, armed faults,
 * the journal, rate-limit windows and the clock offset in one call, and runs the reset hooks
 * (record edits); the next request is answered by the dataset as at start.
 */
import { describe, expect, it, vi } from 'vitest';
import { createMockApp, qaControls } from '../../index.js';
import { ManualSleep } from '../../state/clock/clock.js';
import { adminRoutes } from './admin.js';
import { DEMO, TEST_ORIGIN, testApp } from '../../testing/mock-app.js';

describe('reset', () => {
  it('clears stubs, faults, the journal, rate-limit windows and the clock offset in one call', async () => {
    const mock = await createMockApp({ adminToken: 'qa' });
    const get = (path: string) =>
      mock.fetch(
        new Request(`${mock.url}${path}`, { headers: { 'x-api-key': mock.keys.fullAccess } }),
      );
    await mock.qa.stub({
      operationId: 'listPackages',
      patch: { data: [], pagination: { total: 0, has_more: false } },
    });
    await mock.qa.armFault({ operationId: 'listProducts', status: 500, count: 5 });
    await (await get('/packages?limit=1')).text();
    await mock.qa.advanceClock(3600);
    const before = (await mock.qa.config()) as { clockOffsetSeconds: number };
    expect(before.clockOffsetSeconds).toBe(3600);

    await mock.qa.reset();

    expect(await mock.qa.stubs()).toEqual([]);
    expect(await mock.qa.armedFaults()).toEqual([]);
    expect(await mock.qa.journal()).toEqual([]);
    const after = (await mock.qa.config()) as { clockOffsetSeconds: number };
    expect(after.clockOffsetSeconds).toBe(0);
    const limits = await mock.fetch(
      new Request(`${new URL(mock.url).origin}/__mock/rate-limits`, {
        headers: { 'x-mock-admin-token': 'qa' },
      }),
    );
    expect(await limits.json()).toEqual({});
    const packages = (await (await get('/packages?limit=1')).json()) as { data: unknown[] };
    expect(packages.data).toHaveLength(1);
    expect((await get('/products?limit=1')).status).toBe(200);
  });

  it('runs the reset hooks with the rest', async () => {
    const app = await testApp({ adminToken: 'qa' });
    let cleared = 0;
    const admin = adminRoutes({
      token: 'qa',
      state: app.state,
      plan: app.state.faults,
      store: app.state.stores,
      records: app.state.records,
      resetHooks: [() => void (cleared += 1)],
    });
    const res = await admin.request('/reset', {
      method: 'POST',
      headers: { 'x-mock-admin-token': 'qa' },
    });
    expect(res.status).toBe(200);
    expect(cleared).toBe(1);
  });

  it('is a barrier: 20 requests in flight during it are never journaled after it', async () => {
    const timers = new ManualSleep();
    const app = await testApp({ adminToken: 'qa', sleep: timers.sleep });
    const qa = qaControls({
      origin: TEST_ORIGIN,
      adminToken: 'qa',
      fetch: async (r) => app.fetch(r),
    });
    const inFlight = Array.from({ length: 20 }, async () =>
      app.request(`${TEST_ORIGIN}/web-data/v1/products?limit=1`, {
        headers: { 'x-api-key': DEMO.unlimited, prefer: 'delay=100' },
      }),
    );
    await vi.waitFor(() => expect(timers.waiting).toBe(20));

    await qa.reset();
    timers.advance(100);
    for (const res of await Promise.all(inFlight)) expect(res.status).toBe(200);

    // The next test's view: none of the earlier test's requests.
    await qa.verify({ operationId: 'listProducts' }, { times: 0 });
    expect(await qa.journal()).toEqual([]);
    // A request begun after the reset is journaled as ever.
    await app.request(`${TEST_ORIGIN}/web-data/v1/products?limit=1`, {
      headers: { 'x-api-key': DEMO.unlimited },
    });
    await qa.verify({ operationId: 'listProducts' }, { times: 1 });
  });
});
