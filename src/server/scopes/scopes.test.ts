/**
 * @module scopes/scopes.test
 * The scopes' routes in process: making one (its key, tier and purpose), the limit's refusal, the
 * TTL on the mock's clock, close, an unknown scope, and the isolation of each concern (stub,
 * record edit, fault, clock, rate-limit window, journal, reset) between two scopes and the mock's
 * own controls, both ways.
 */
import { describe, expect, it } from 'vitest';
import { createMockApp } from '../../api/mock.js';
import { qaControls, QaControlError } from '../../api/qa.js';
import { ManualClock } from '../../state/clock/clock.js';
import { DEMO, sharedDataset, TEST_ORIGIN, testApp } from '../../testing/mock-app.js';
import type { MockApp } from '../app.js';
import { holdsSecret } from '../../redaction.js';
import { MAX_FAILURES } from '../admin/admin-guard.js';
import { scopeLimitMessage } from './limits.js';

const PRODUCT = sharedDataset().products.id(0);
const PART = sharedDataset().productParts.id(0);

async function mockWithScopes(options: Parameters<typeof testApp>[0] = {}) {
  const clock = new ManualClock();
  const lines: string[] = [];
  const app = await testApp({
    adminToken: 'qa-admin-token',
    clock,
    log: (l) => lines.push(l),
    ...options,
  });
  const qa = qaControls({
    origin: TEST_ORIGIN,
    adminToken: 'qa-admin-token',
    fetch: (request) => Promise.resolve(app.fetch(request)),
  });
  return { app, qa, clock, lines };
}

async function get(app: MockApp, path: string, key: string) {
  const res = await app.fetch(
    new Request(`${TEST_ORIGIN}/web-data/v1${path}`, { headers: { 'x-api-key': key } }),
  );
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** `GET /__mock/scopes`, as the console asks it. */
async function listScopes(app: MockApp) {
  const res = await app.fetch(
    new Request(`${TEST_ORIGIN}/__mock/scopes`, {
      headers: { 'x-mock-admin-token': 'qa-admin-token' },
    }),
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { scopes: { id: string }[]; max: number; ttlSeconds: number };
}

const titleOf = async (app: MockApp, key: string) =>
  (await get(app, `/products/${PRODUCT}`, key)).body.title;

describe('making a scope', () => {
  it('answers a fresh key with the tier of the purpose asked for', async () => {
    const { app, qa } = await mockWithScopes();
    const full = await qa.scope();
    expect(full.apiKey).toMatch(/^wdm-scope-[A-Za-z0-9_-]{43}$/);
    expect(full).toMatchObject({
      keyName: `scope-${full.id}`,
      purpose: 'fullAccess',
      ttlSeconds: 900,
    });
    expect(full.tier).toBe('standard');
    const limited = await qa.scope({ purpose: 'rateLimited' });
    expect(limited.tier).toBe('trial');
    expect(limited.apiKey).not.toBe(full.apiKey);
    const restricted = await qa.scope({ purpose: 'restricted' });
    expect((await get(app, '/documents?limit=1', restricted.apiKey)).status).toBe(403);
    expect((await get(app, '/products?limit=1', restricted.apiKey)).status).toBe(200);
    await expect(qa.scope({ purpose: 'nope' as 'fullAccess' })).rejects.toThrow(
      /400 purpose must be one the mock has a demo key for: fullAccess, /,
    );
  });

  it('refuses one more than --max-scopes with 409, naming the flag, close() and the TTL', async () => {
    const { qa } = await mockWithScopes({ maxScopes: 2, scopeTtlSeconds: 60 });
    const first = await qa.scope();
    await qa.scope();
    const refused = await qa.scope().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(QaControlError);
    expect((refused as QaControlError).status).toBe(409);
    expect((refused as Error).message).toContain(scopeLimitMessage(2, 60));
    expect((refused as Error).message).toMatch(/--max-scopes.*close\(\).*60 s, --scope-ttl/);
    await first.close();
    await expect(qa.scope()).resolves.toMatchObject({ purpose: 'fullAccess' });
  });

  it('ends a scope unused for its TTL, on the mock clock; each use starts the wait again', async () => {
    const { app, qa, clock } = await mockWithScopes({ scopeTtlSeconds: 60, maxScopes: 1 });
    const scope = await qa.scope();
    clock.advance(59_000);
    expect((await get(app, '/products?limit=1', scope.apiKey)).status).toBe(200);
    clock.advance(59_000);
    expect(await scope.stubs()).toEqual([]);
    clock.advance(60_000);
    const gone = await get(app, '/products?limit=1', scope.apiKey);
    expect(gone.status).toBe(401);
    expect(gone.body.error).toMatch(/no scope has this key .*TTL of 60 s/);
    await expect(scope.stubs()).rejects.toMatchObject({ status: 404 });
    // Its place is free again.
    await expect(qa.scope()).resolves.toBeDefined();
  });

  it('lists the live scopes, most recently used first, without their keys; a listing is no use', async () => {
    const { app, qa, clock } = await mockWithScopes({ scopeTtlSeconds: 60 });
    const first = await qa.scope();
    const second = await qa.scope({ purpose: 'rateLimited' });
    clock.advance(10_000);
    expect((await get(app, '/products?limit=1', first.apiKey)).status).toBe(200);
    clock.advance(5_000);
    const listed = await listScopes(app);
    expect(listed).toEqual({
      scopes: [first, second].map((scope, i) => ({
        id: scope.id,
        keyName: scope.keyName,
        purpose: scope.purpose,
        tier: scope.tier,
        idleSeconds: [5, 15][i],
      })),
      max: 256,
      ttlSeconds: 60,
    });
    expect(JSON.stringify(listed)).not.toContain('wdm-scope-');
    expect(await qa.scopes()).toEqual(listed.scopes);
    clock.advance(50_000);
    expect((await listScopes(app)).scopes.map((scope) => scope.id)).toEqual([first.id]);
    clock.advance(5_000);
    expect((await listScopes(app)).scopes).toEqual([]);
  });

  it('close() ends it: its key gets 401, its controls 404, and an unknown id is a 404', async () => {
    const { app, qa } = await mockWithScopes();
    const scope = await qa.scope();
    await scope.close();
    expect((await get(app, '/products?limit=1', scope.apiKey)).status).toBe(401);
    await expect(scope.journal()).rejects.toMatchObject({ status: 404 });
    await expect(scope.close()).rejects.toMatchObject({ status: 404 });
    const res = await app.fetch(
      new Request(`${TEST_ORIGIN}/__mock/scopes/0123456789abcdef/stubs`, {
        headers: { 'x-mock-admin-token': 'qa-admin-token' },
      }),
    );
    expect(res.status).toBe(404);
    const bad = await app.fetch(
      new Request(`${TEST_ORIGIN}/__mock/scopes/..%2Fstubs/stubs`, {
        headers: { 'x-mock-admin-token': 'qa-admin-token' },
      }),
    );
    expect(bad.status).toBe(404);
    const noToken = await app.fetch(
      new Request(`${TEST_ORIGIN}/__mock/scopes`, { method: 'POST' }),
    );
    expect(noToken.status).toBe(401);
  });

  it('takes its TTL and limit from the library options, each checked', async () => {
    const mock = await createMockApp({ scopeTtlSeconds: 30, maxScopes: 1 });
    const scope = await mock.qa.scope();
    expect(scope.ttlSeconds).toBe(30);
    await expect(mock.qa.scope()).rejects.toMatchObject({ status: 409 });
    await mock.close();
    await expect(createMockApp({ maxScopes: 0 })).rejects.toThrow(
      new TypeError('maxScopes must be an integer from 1 to 10000 (got 0)'),
    );
    await expect(createMockApp({ scopeTtlSeconds: 1.5 })).rejects.toThrow(
      /^scopeTtlSeconds must be an integer from 1 to 604800/,
    );
  });

  it('is not there without an admin token: a scope-like key is just an invalid key', async () => {
    const app = await testApp();
    const key = `wdm-scope-${'A'.repeat(43)}`;
    expect((await get(app, '/products?limit=1', key)).status).toBe(401);
  });
});

describe('isolation', () => {
  async function twoScopes() {
    const made = await mockWithScopes();
    const a = await made.qa.scope();
    const b = await made.qa.scope();
    return { ...made, a, b };
  }

  it('of stubs: the same product stubbed two ways, the mock untouched', async () => {
    const { app, qa, a, b } = await twoScopes();
    const seedTitle = await titleOf(app, DEMO.unlimited);
    await a.stub({
      operationId: 'getProduct',
      match: { params: { product_id: PRODUCT } },
      patch: { title: 'A' },
    });
    await b.stub({
      operationId: 'getProduct',
      match: { params: { product_id: PRODUCT } },
      patch: { title: 'B' },
    });
    expect(await titleOf(app, a.apiKey)).toBe('A');
    expect(await titleOf(app, b.apiKey)).toBe('B');
    expect(await titleOf(app, DEMO.unlimited)).toBe(seedTitle);
    expect(await qa.stubs()).toEqual([]);
    expect(await a.stubs()).toHaveLength(1);
  });

  it('of record edits, armed faults and the clock', async () => {
    const { app, qa, a, b } = await twoScopes();
    const path = `/product-parts/${encodeURIComponent(PART)}`;
    const seed = (await get(app, path, DEMO.unlimited)).body;
    const description = async (key: string) => (await get(app, path, key)).body.description;
    await a.records.put('productParts', { ...seed, description: 'edited in A' });
    expect(await description(a.apiKey)).toBe('edited in A');
    expect(await description(b.apiKey)).toBe(seed.description);
    expect(await description(DEMO.unlimited)).toBe(seed.description);
    expect(await b.records.list()).toEqual([]);

    await b.armFault({ operationId: 'listProducts', status: 500, times: 5 });
    expect((await get(app, '/products?limit=1', b.apiKey)).status).toBe(500);
    expect((await get(app, '/products?limit=1', a.apiKey)).status).toBe(200);
    expect((await get(app, '/products?limit=1', DEMO.unlimited)).status).toBe(200);
    expect(await qa.armedFaults()).toEqual([]);

    expect(await a.advanceClock(3600)).toBe(3600);
    expect(((await b.config()) as { clockOffsetSeconds: number }).clockOffsetSeconds).toBe(0);
    expect(((await qa.config()) as { clockOffsetSeconds: number }).clockOffsetSeconds).toBe(0);
    await qa.advanceClock(60);
    expect(((await a.config()) as { clockOffsetSeconds: number }).clockOffsetSeconds).toBe(3600);
  });

  it('of rate-limit windows: a scope at its limit leaves the demo key and other scopes alone', async () => {
    const { app, qa } = await mockWithScopes();
    const a = await qa.scope({ purpose: 'rateLimited' });
    const b = await qa.scope({ purpose: 'rateLimited' });
    let status = 200;
    for (let i = 0; i < 100 && status === 200; i += 1)
      status = (await get(app, '/products?limit=1', a.apiKey)).status;
    expect(status).toBe(429);
    expect((await get(app, '/products?limit=1', b.apiKey)).status).toBe(200);
    expect((await get(app, '/products?limit=1', DEMO.lowTier)).status).toBe(200);
    await a.resetRateLimits();
    expect((await get(app, '/products?limit=1', a.apiKey)).status).toBe(200);
  });

  it('of the journal and reset, both ways', async () => {
    const { app, qa, a, b } = await twoScopes();
    await get(app, '/products?limit=1', a.apiKey);
    await get(app, '/packages?limit=1', b.apiKey);
    await get(app, '/boards-kits?limit=1', DEMO.unlimited);
    expect((await a.journal()).map((e) => [e.path, e.key])).toEqual([
      ['/web-data/v1/products?limit=1', a.keyName],
    ]);
    await b.verify({ operationId: 'listPackages' }, { times: 1 });
    await expect(b.verify({ operationId: 'listProducts' })).rejects.toThrow();
    expect((await qa.journal()).map((e) => e.key)).toEqual(['demo-unlimited']);

    await b.stub({ operationId: 'getProduct', patch: { title: 'B' } });
    await a.stub({ operationId: 'getProduct', patch: { title: 'A' } });
    await a.reset();
    expect(await a.journal()).toEqual([]);
    expect(await a.stubs()).toEqual([]);
    expect(await b.journal()).toHaveLength(1);
    await qa.reset();
    expect(await titleOf(app, b.apiKey)).toBe('B');
  });

  it('keeps every scope key out of the journal and the log', async () => {
    const { app, qa, a, b, lines } = await twoScopes();
    await get(app, `/products?limit=1&note=${b.apiKey}`, a.apiKey);
    await get(app, `/products?limit=1&note=${a.apiKey}`, DEMO.unlimited);
    const seen = JSON.stringify([await a.journal(), await qa.journal(), lines]);
    expect(seen).not.toContain(a.apiKey);
    expect(seen).not.toContain(b.apiKey);
    expect(seen).not.toContain('wdm-scope-');
  });

  it('keeps every scope key out of every journal and the log in any case or encoding', async () => {
    const { app, qa, a, b, lines } = await twoScopes();
    const forms = (key: string) => [
      [...Buffer.from(key)].map((byte) => `%${byte.toString(16)}`).join(''),
      key.toUpperCase(),
      Buffer.from(key).toString('hex'),
      Buffer.from(`.${key}`).toString('base64url'),
      JSON.stringify(JSON.stringify(key)).replace(/s/g, '\\u0073'),
    ];
    const send = async (shown: string, key: string) => {
      for (const form of forms(shown))
        await get(app, `/products?limit=1&note=${encodeURIComponent(form)}`, key);
    };
    await send(b.apiKey, a.apiKey);
    await send(a.apiKey, a.apiKey);
    await send(a.apiKey, DEMO.unlimited);
    const journals = [await a.journal(), await b.journal(), await qa.journal()];
    expect(journals.map((journal) => journal.length)).toEqual([10, 0, 5]);
    expect(holdsSecret(JSON.stringify([journals, lines]), [a.apiKey, b.apiKey])).toBe(false);
  });
});

describe('wrong admin tokens', () => {
  it(`count once for the mock's controls and every scope's: ${MAX_FAILURES} anywhere, then 429 everywhere`, async () => {
    const { app, qa } = await mockWithScopes();
    const scope = await qa.scope();
    const wrong = (path: string, headers: Record<string, string> = {}) =>
      app.fetch(
        new Request(`${TEST_ORIGIN}/__mock${path}`, {
          headers: { 'x-mock-admin-token': 'not-the-token', ...headers },
        }),
      );
    // Spread over the three doors a guess could knock on: the mock's, the scope's path, and the
    // scope's own controls reached with its API key.
    for (let i = 0; i < MAX_FAILURES; i += 1) {
      const door = i % 3;
      const res =
        door === 0
          ? await wrong('/stubs')
          : door === 1
            ? await wrong(`/scopes/${scope.id}/stubs`)
            : await wrong('/stubs', { 'x-api-key': scope.apiKey });
      expect(res.status).toBe(401);
    }
    for (const res of [
      await wrong('/stubs'),
      await wrong(`/scopes/${scope.id}/stubs`),
      await wrong('/stubs', { 'x-api-key': scope.apiKey }),
    ])
      expect(res.status).toBe(429);
  });
});
