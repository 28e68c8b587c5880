import { afterAll, describe, expect, it, vi } from 'vitest';
import { BASE_PATH } from '../contract/index.js';
import { startMockServer, type RunningServer } from './listen.js';
import { hrefsIn } from '../testing/dataset-walk.js';
import { call, DEMO, TEST_ORIGIN, testApp, validatorsFor } from '../testing/mock-app.js';

const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
});
async function start(options: Parameters<typeof startMockServer>[0] = {}): Promise<RunningServer> {
  const server = await startMockServer({ validateResponses: true, ...options });
  running.push(server);
  return server;
}
const get = (url: string, key: string = DEMO.unlimited, init: RequestInit = {}) =>
  fetch(url, {
    ...init,
    headers: { 'x-api-key': key, ...(init.headers as Record<string, string>) },
  });

/** Every list endpoint of the latest release, in one page each. */
const LISTS = [
  '/products',
  '/product-parts',
  '/product-parts/attributes',
  '/documents',
  '/documents/types',
  '/boards-kits',
  '/packages',
  '/software-tools',
];

describe('the mock over real HTTP', () => {
  it('resolves every href of every record to a 200 (relative and absolute), in process and over HTTP', async () => {
    const app = await testApp({ apiVersion: 'unreleased' });
    const hrefs = new Set<string>();
    // Every page at the largest page size every list allows (the reference's 100).
    for (const list of LISTS) {
      for (let page = 0, more = true; more; page++) {
        const res = await call(app, `${list}?limit=100&offset=${page}`);
        expect(res.status).toBe(200);
        for (const found of hrefsIn(res.body)) hrefs.add(found.href);
        more = res.body.pagination.has_more;
      }
    }
    expect(hrefs.size).toBeGreaterThan(500);
    const broken: string[] = [];
    for (const href of hrefs) {
      if (href.startsWith('http') && !href.startsWith(`${TEST_ORIGIN}${BASE_PATH}/`))
        broken.push(`${href} (not on the base URL)`);
      const res = await call(app, href, { method: 'HEAD' });
      if (res.status !== 200) broken.push(`${href} -> ${res.status}`);
    }
    expect(broken).toEqual([]);
    // A sample through a real socket, absolute hrefs pointing at the listening port.
    const server = await start({ apiVersion: 'unreleased' });
    const boards = await (await get(`${server.url}/boards-kits?limit=5`)).json();
    const sample = [...new Set(hrefsIn(boards).map((found) => found.href))].slice(0, 40);
    expect(sample.some((h) => h.startsWith(server.url))).toBe(true);
    for (const href of sample)
      expect(
        (await get(href.startsWith('http') ? href : `${server.url}${href}`)).status,
        href,
      ).toBe(200);
  });

  it('serves byte-identical responses from two starts with one seed, and other data with another seed', async () => {
    const paths = [
      '/products?limit=5',
      '/product-parts?limit=5&offset=3',
      '/documents?limit=3&order=title&orderDirection=asc',
      '/boards-kits?limit=4',
      '/packages?limit=2',
      '/software-tools?limit=2',
    ];
    const bodies = async (server: RunningServer) =>
      Promise.all(paths.map(async (p) => (await get(`${server.url}${p}`)).text()));
    const [a, b, c] = await Promise.all([
      start({ seed: 42 }),
      start({ seed: 42 }),
      start({ seed: 43 }),
    ]);
    // Absolute hrefs carry the port: compare with it normalised.
    const norm = (server: RunningServer, texts: string[]) =>
      texts.map((t) => t.split(server.origin).join('ORIGIN'));
    expect(norm(a, await bodies(a))).toEqual(norm(b, await bodies(b)));
    expect(norm(a, await bodies(a))).not.toEqual(norm(c, await bodies(c)));
  });

  it('serves staging and production side by side, each with its own keys', async () => {
    const server = await start({ environments: ['production', 'staging'] });
    const staging = `${server.origin}/staging${BASE_PATH}`;
    expect((await get(`${staging}/products`, DEMO.staging)).status).toBe(200);
    expect((await get(`${staging}/products`, DEMO.production)).status).toBe(401);
    expect((await get(`${server.url}/products`, DEMO.staging)).status).toBe(401);
  });

  it('serves only what an older release served', async () => {
    const server = await start({ apiVersion: '1.0.0' });
    expect((await get(`${server.url}/products`)).status).toBe(404);
    const part = (await (await get(`${server.url}/product-parts?limit=1`)).json()).data[0];
    expect(part).not.toHaveProperty('BOPN');
    expect(part).not.toHaveProperty('distiInventory');
    const { contract, validators } = await validatorsFor('1.0.0');
    expect(validators.checkResponseBody(contract.operation('getProductPart'), 200, part)).toEqual(
      [],
    );
  });

  it('drops the connection, truncates and slows bodies on request', async () => {
    const server = await start();
    await expect(
      get(`${server.url}/products`, DEMO.unlimited, { headers: { prefer: 'reset' } }),
    ).rejects.toThrow();
    const truncated = await get(`${server.url}/products?limit=50`, DEMO.unlimited, {
      headers: { prefer: 'truncate' },
    });
    expect(truncated.status).toBe(200);
    await expect(truncated.text()).rejects.toThrow();
    const started = performance.now();
    const slow = await get(`${server.url}/packages?limit=1`, DEMO.unlimited, {
      headers: { prefer: 'slow=400' },
    });
    const text = await slow.text();
    expect(JSON.parse(text).data).toHaveLength(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(
      50 * (Math.ceil(Buffer.byteLength(text) / 400) - 1) - 10,
    );
    // The server is still healthy afterwards.
    expect((await get(`${server.url}/products`)).status).toBe(200);
  });

  it('cuts a truncated body by closing the connection, printing nothing', async () => {
    const server = await start();
    const printed = vi.spyOn(console, 'error');
    const informed = vi.spyOn(console, 'info');
    try {
      const truncated = await get(`${server.url}/products?limit=50`, DEMO.unlimited, {
        headers: { prefer: 'truncate' },
      });
      const declared = Number(truncated.headers.get('content-length'));
      let received = 0;
      const reader = truncated.body!.getReader();
      await expect(
        (async () => {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) return;
            received += value.byteLength;
          }
        })(),
      ).rejects.toThrow();
      expect(received).toBe(Math.floor(declared / 2));
      // The connection's close is what ends the response: by then anything printed was printed.
      await new Promise((r) => setImmediate(r));
      expect(printed).not.toHaveBeenCalled();
      expect(informed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
      informed.mockRestore();
    }
  });
});

describe('control endpoints', () => {
  const token = 'test-admin-token';
  const admin = (server: RunningServer, path: string, init: RequestInit = {}) =>
    fetch(`${server.origin}/__mock${path}`, {
      ...init,
      headers: {
        'x-mock-admin-token': token,
        'content-type': 'application/json',
        ...(init.headers as Record<string, string>),
      },
    });

  it('are off without a token and refuse a wrong one', async () => {
    const off = await start();
    expect((await fetch(`${off.origin}/__mock/config`)).status).toBe(404);
    const on = await start({ adminToken: token });
    expect(
      (await fetch(`${on.origin}/__mock/config`, { headers: { 'x-mock-admin-token': 'nope' } }))
        .status,
    ).toBe(401);
  });

  it('arm faults for the next N requests, then normal service resumes (500, 500, 200)', async () => {
    const server = await start({ adminToken: token });
    const armed = await admin(server, '/scenarios', {
      method: 'POST',
      body: JSON.stringify({ operationId: 'listProducts', count: 2, status: 500 }),
    });
    expect(armed.status).toBe(201);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(`${server.url}/products`)).status);
    expect(statuses).toEqual([500, 500, 200]);
    // A key given by its secret is kept as its name, never the secret.
    const bySecret = await admin(server, '/scenarios', {
      method: 'POST',
      body: JSON.stringify({ key: 'demo-production-key', status: 500 }),
    });
    expect(bySecret.status).toBe(201);
    const text = await bySecret.text();
    expect(text).toContain('"key":"demo-production"');
    expect(text).not.toContain('demo-production-key');
  });

  it('reset rate limits and advance the clock so a window passes without waiting', async () => {
    const server = await start({ adminToken: token, tierOverride: { requestsPerMinute: 2 } });
    for (let i = 0; i < 2; i++)
      expect((await get(`${server.url}/packages`, DEMO.lowTier)).status).toBe(200);
    expect((await get(`${server.url}/packages`, DEMO.lowTier)).status).toBe(429);
    expect(
      (
        await admin(server, '/clock/advance', {
          method: 'POST',
          body: JSON.stringify({ seconds: 60 }),
        })
      ).status,
    ).toBe(200);
    expect((await get(`${server.url}/packages`, DEMO.lowTier)).status).toBe(200);
    await get(`${server.url}/packages`, DEMO.lowTier);
    expect((await get(`${server.url}/packages`, DEMO.lowTier)).status).toBe(429);
    expect((await admin(server, '/rate-limits/reset', { method: 'POST', body: '{}' })).status).toBe(
      200,
    );
    expect((await get(`${server.url}/packages`, DEMO.lowTier)).status).toBe(200);
  });

  it('list the last requests and the config without any secret', async () => {
    const server = await start({ adminToken: token });
    await get(`${server.url}/products?limit=1`, DEMO.production);
    await get(`${server.url}/products`, 'wrong-secret-value');
    const journal = await (await admin(server, '/requests?limit=2')).json();
    expect(
      journal.requests.map((r: { status: number; key: string | null }) => [r.status, r.key]),
    ).toEqual([
      [401, null],
      [200, 'demo-production'],
    ]);
    const texts = [JSON.stringify(journal), await (await admin(server, '/config')).text()];
    for (const text of texts)
      for (const secret of [DEMO.production, 'wrong-secret-value', token])
        expect(text).not.toContain(secret);
  });
});
