import { describe, expect, it, vi } from 'vitest';
import { call, DEMO, TEST_ORIGIN, testApp, validatorsFor } from '../../testing/mock-app.js';
import { ManualSleep } from '../../state/clock/clock.js';
import { FaultPlan } from './fault-plan.js';
import { ArmedFaultBook } from '../../state/faults/memory.js';
import type { RequestFacts } from '../../state/faults/faults.js';
import { parsePrefer, parseRandomFaults, PREFER_RULE, SLOW_TICK_MS } from './actions.js';

describe('Prefer overrides', async () => {
  const app = await testApp();
  const { contract, validators } = await validatorsFor(app.state.contract.release);
  it.each([
    ['/products', 'listProducts', 429],
    ['/products', 'listProducts', 500],
    ['/products/P', 'getProduct', 404],
    ['/documents/agile-id/X', 'getDocumentByAgileId', 401],
    ['/packages', 'listPackages', 403],
  ])(
    '%s with Prefer code=%s... answers exactly what the document declares',
    async (path, operationId, status) => {
      const res = await call(app, path, { headers: { prefer: `code=${status}` } });
      expect(res.status).toBe(status);
      expect(
        validators.checkResponseBody(contract.operation(operationId), status, res.body),
      ).toEqual([]);
      if (status === 429) expect(res.headers.get('retry-after')).toBe(String(res.body.retry_after));
    },
  );
  it('takes retry-after for a forced 429', async () => {
    const res = await call(app, '/products', { headers: { prefer: 'code=429, retry-after=7' } });
    expect(res.body.retry_after).toBe(7);
    expect(res.headers.get('retry-after')).toBe('7');
  });
  it('refuses a status the operation does not declare, and a malformed value, with 400 naming the header', async () => {
    expect(
      (await call(app, '/products', { headers: { prefer: 'code=404' } })).body.error,
    ).toContain('header "prefer"');
    expect(
      (await call(app, '/products', { headers: { prefer: 'code=abc' } })).body.error,
    ).toContain('header "prefer"');
    expect((await call(app, '/products', { headers: { prefer: 'delay=-5' } })).status).toBe(400);
  });
  it('ignores preferences it does not know (RFC 7240) and never leaks one request into the next', async () => {
    expect((await call(app, '/products', { headers: { prefer: 'return=minimal' } })).status).toBe(
      200,
    );
    expect((await call(app, '/products', { headers: { prefer: 'code=500' } })).status).toBe(500);
    expect((await call(app, '/products')).status).toBe(200);
  });
  it('delays a request by what Prefer asks, on the sleep the app is given', async () => {
    const timers = new ManualSleep();
    const delayed = await testApp({ sleep: timers.sleep });
    let answered = false;
    const answer = call(delayed, '/products', { headers: { prefer: 'delay=120' } }).then((res) => {
      answered = true;
      return res;
    });
    await vi.waitFor(() => expect(timers.waiting).toBe(1));
    timers.advance(119);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    timers.advance(1);
    expect((await answer).status).toBe(200);
  });
  it('cuts a truncated body one tick of the given sleep after its first half', async () => {
    const timers = new ManualSleep();
    const cutting = await testApp({ sleep: timers.sleep });
    const res = await cutting.request(`${TEST_ORIGIN}/web-data/v1/products?limit=50`, {
      headers: { 'x-api-key': DEMO.unlimited, prefer: 'truncate' },
    });
    expect(res.status).toBe(200);
    const read = res.text();
    await vi.waitFor(() => expect(timers.waiting).toBe(1));
    timers.advance(SLOW_TICK_MS);
    await expect(read).rejects.toThrow('truncated');
  });
});

describe('FaultPlan', () => {
  const declares = () => true;
  it('hits the next N matching requests, then lets normal service resume', () => {
    const plan = new FaultPlan({ seed: 1 });
    const book = new ArmedFaultBook();
    book.arm({ operationId: 'listProducts' }, 2, { status: 500 });
    const seq = ['listProducts', 'getProduct', 'listProducts', 'listProducts'].map(
      (operationId) => {
        const request = { operationId, keyName: 'k', declares };
        return plan.decide(request, book.takeArmed(request))?.status;
      },
    );
    expect(seq).toEqual([500, undefined, 500, undefined]);
    expect(book.armed()).toEqual([]);
  });
  it('matches by key name and skips operations that do not declare the status', () => {
    const plan = new FaultPlan({ seed: 1 });
    const book = new ArmedFaultBook();
    const decide = (request: RequestFacts) => plan.decide(request, book.takeArmed(request));
    book.arm({ key: 'demo-production' }, 1, { status: 404 });
    expect(
      decide({
        operationId: 'listProducts',
        keyName: 'demo-production',
        declares: (s) => s !== 404,
      }),
    ).toBeUndefined();
    expect(decide({ operationId: 'getProduct', keyName: 'other', declares })).toBeUndefined();
    expect(decide({ operationId: 'getProduct', keyName: 'demo-production', declares })).toEqual({
      status: 404,
    });
  });
  it('gives the same fault sequence for the same seed, another for another seed', () => {
    const run = (seed: number) => {
      const plan = new FaultPlan({
        seed,
        random: parseRandomFaults('error=0.2,delay=0.2:10-50,reset=0.1'),
      });
      return Array.from({ length: 200 }, () =>
        JSON.stringify(
          plan.decide({ operationId: 'x', keyName: undefined, declares }, undefined) ?? null,
        ),
      );
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
    const faults = run(7).filter((f) => f !== 'null').length;
    expect(faults).toBeGreaterThan(60);
    expect(faults).toBeLessThan(140);
  });
  it('bounds what can be armed', () => {
    const book = new ArmedFaultBook();
    expect(() => book.arm({}, 0, { status: 500 })).toThrow(/count/);
    expect(() => book.arm({}, 1, {})).toThrow(/action/);
  });
  it('parses Prefer', () => {
    expect(parsePrefer('code=429; delay=10, reset, truncate, slow=8')).toEqual({
      status: 429,
      delayMs: 10,
      reset: true,
      truncate: true,
      slowBytesPerTick: 8,
    });
    expect(parsePrefer('retry-after=30, slow')).toEqual({
      retryAfterSeconds: 30,
      slowBytesPerTick: 1,
    });
    expect(() => parsePrefer('reset=yes')).toThrow(/^Prefer: reset is a switch/);
    expect(PREFER_RULE).toBe(
      'Prefer: code=<declared status>, retry-after=<s>, delay=<ms>, reset, truncate, slow=<bytes per tick>',
    );
  });
});

describe('seeded faults through the app', () => {
  it('replays the same statuses for the same seed', async () => {
    const statuses = async (seed: number) => {
      const app = await testApp({ faults: { seed, random: parseRandomFaults('error=0.3') } });
      const out: number[] = [];
      for (let i = 0; i < 40; i++)
        out.push((await call(app, '/packages?limit=1', { key: DEMO.unlimited })).status);
      return out;
    };
    const first = await statuses(3);
    expect(first).toEqual(await statuses(3));
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  it('draws nothing from the plan for a request a Prefer header governed', async () => {
    const statuses = async (preferFirst: boolean) => {
      const app = await testApp({ faults: { seed: 3, random: parseRandomFaults('error=0.3') } });
      if (preferFirst)
        expect(
          (await call(app, '/packages?limit=1', { headers: { prefer: 'code=200' } })).status,
        ).toBe(200);
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await call(app, '/packages?limit=1')).status);
      return out;
    };
    expect(await statuses(true)).toEqual(await statuses(false));
  });
});
