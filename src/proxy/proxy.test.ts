/**
 * @module proxy/proxy.test
 * The proxy end to end over real HTTP, in front of small stand-in upstreams (Hono apps on port
 * 0): one that echoes what it received, one deliberately broken, one that hangs, one that
 * streams a file slowly. Every test asserts on bodies and log lines, not only on statuses.
 */
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../contract/index.js';
import { VIOLATIONS_HEADER } from './app.js';
import { startProxy, type RunningProxy } from './listen.js';
import { logSink, serveApp, type Served } from './testdata/servers.js';

const SECRET = 'live-secret-3f9a1c';
const PAGE_ORIGIN = 'http://localhost:5173';
const RATE_HEADERS = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99' };
const EMPTY_PAGE = { data: [], pagination: { offset: 0, limit: 10, total: 0, has_more: false } };
/** A product whose title has the wrong type: the one documented rule the broken upstream breaks. */
const BROKEN_PRODUCT = {
  productId: 'P1',
  wwwUpdateDate: '2026-01-01T00:00:00Z',
  uuid: 'u',
  title: 123,
  url: 'https://x',
  category: [],
  description: 'd',
  features: 'f',
  applications: 'a',
  additionalDetails: null,
  images: [],
  orderableProducts: [],
  relatedProducts: [],
  relatedBoardsKits: [],
  featuredDocuments: [],
  relatedDocuments: [],
  relatedDocumentsSecondary: [],
  softwareTools: [],
};
const FILE_CHUNK = 'A'.repeat(64 * 1024);

interface Seen {
  path: string;
  headers: Record<string, string>;
  body: string;
}

const seen: Seen[] = [];

/** `Headers` as a plain object (the DOM lib here has no iterable Headers). */
function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}
let releaseDownload: () => void = () => {};

function upstreamApp(): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    seen.push({
      path: c.req.url.slice(c.req.url.indexOf(BASE_PATH)),
      headers: headersOf(c.req.raw.headers),
      body: await c.req.text(),
    });
    await next();
  });
  app.get(`${BASE_PATH}/products`, (c) =>
    c.json(EMPTY_PAGE, 200, {
      ...RATE_HEADERS,
      'set-cookie': 'session=abc',
      'access-control-allow-origin': '*',
      connection: 'close',
    }),
  );
  app.get(`${BASE_PATH}/products/P1`, (c) => c.json(BROKEN_PRODUCT, 200, RATE_HEADERS));
  app.get(`${BASE_PATH}/products/echo`, (c) =>
    c.json({ error: `key ${c.req.header('x-api-key')} is not allowed here` }, 404, {
      'x-echo': c.req.header('x-api-key') ?? '',
    }),
  );
  app.get(`${BASE_PATH}/products/missing`, (c) =>
    c.json({ error: 'Product "missing" not found' }, 404),
  );
  app.get(`${BASE_PATH}/boards-kits`, (c) =>
    c.json({ error: 'Rate limit exceeded', code: 429, retry_after: 7 }, 429, {
      'retry-after': '7',
    }),
  );
  app.get(`${BASE_PATH}/documents/types`, (c) =>
    c.json({ ...EMPTY_PAGE, nextCursor: 'c2' }, 200, RATE_HEADERS),
  );
  app.get(`${BASE_PATH}/product-parts/attributes`, (c) => c.json(EMPTY_PAGE));
  app.get(`${BASE_PATH}/documents`, (c) => c.html('<html>maintenance</html>', 200, RATE_HEADERS));
  app.get(`${BASE_PATH}/packages/DEEP`, (c) =>
    c.body(`{"error":"x","deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, 404, {
      'content-type': 'application/json',
    }),
  );
  app.get(`${BASE_PATH}/packages/PKG1`, (c) =>
    c.json({ error: 'Package "PKG1" not found', contactEmail: 'someone@example.com' }, 404),
  );
  app.get(`${BASE_PATH}/packages`, (c) =>
    c.json({ ...EMPTY_PAGE, extra: 'x'.repeat(2048) }, 200, RATE_HEADERS),
  );
  app.get(`${BASE_PATH}/software-tools`, () => new Promise<Response>(() => {}));
  app.get(`${BASE_PATH}/software-tools/stalled`, (c) => {
    c.header('content-type', 'application/json');
    // Headers and half a body, then nothing: the deadline covers a buffered body too.
    return stream(c, async (s) => {
      await s.write('{"softwareToolName":');
      await new Promise<void>(() => {});
    });
  });
  app.post(`${BASE_PATH}/product-parts/cross-reference`, (c) =>
    c.json({ data: [] }, 200, RATE_HEADERS),
  );
  app.get(`${BASE_PATH}/documents/download/D1`, (c) => {
    c.header('content-type', 'application/pdf');
    c.header('content-length', String(FILE_CHUNK.length * 2));
    c.header('content-disposition', 'attachment; filename="d1.pdf"');
    for (const [name, value] of Object.entries(RATE_HEADERS)) c.header(name, value);
    return stream(c, async (s) => {
      await s.write(FILE_CHUNK);
      // The second half waits until the client has the first: only a streaming proxy lets it.
      await new Promise<void>((resolve) => (releaseDownload = resolve));
      await s.write(FILE_CHUNK);
    });
  });
  return app;
}

let upstream: Served;
let proxy: RunningProxy;
const sink = logSink();
let recordings: string;

beforeAll(async () => {
  upstream = await serveApp(upstreamApp());
  recordings = mkdtempSync(join(tmpdir(), 'proxy-recordings-'));
  proxy = await startProxy({
    upstream: upstream.url,
    apiKey: SECRET,
    allowedOrigins: [PAGE_ORIGIN],
    signalViolations: true,
    upstreamTimeoutMs: 300,
    maxJsonBytes: 1024,
    apiVersion: 'unreleased',
    recordingsDir: recordings,
    log: sink.log,
  });
});

afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
  rmSync(recordings, { recursive: true, force: true });
});

const lastSeen = () => seen[seen.length - 1];

describe('the key', () => {
  it('is added upstream, replacing any the browser sent; cookies and authorization stay behind', async () => {
    const res = await fetch(`${proxy.url}/products?limit=10`, {
      headers: {
        'x-api-key': 'browser-key',
        cookie: 'a=b',
        authorization: 'Bearer t',
        accept: 'application/json',
      },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(EMPTY_PAGE);
    const sent = lastSeen();
    expect(sent.path).toBe(`${BASE_PATH}/products?limit=10`);
    expect(sent.headers['x-api-key']).toBe(SECRET);
    expect(sent.headers).not.toHaveProperty('cookie');
    expect(sent.headers).not.toHaveProperty('authorization');
    expect(sent.headers.accept).toBe('application/json');
  });

  it('strips set-cookie, hop-by-hop and the live CORS answer from the response', async () => {
    const res = await fetch(`${proxy.url}/products`);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('x-ratelimit-remaining')).toBe('99');
  });

  it('never reaches the browser or the log, even when the live service echoes it', async () => {
    const res = await fetch(`${proxy.url}/products/echo`);
    const text = await res.text();
    expect(res.status).toBe(404);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('key *** is not allowed');
    for (const value of Object.values(headersOf(res.headers))) expect(value).not.toContain(SECRET);
    expect(res.headers.get('x-echo')).toBeNull();
    expect(sink.events('key-echoed')).toHaveLength(1);
    expect(sink.lines.join('\n')).not.toContain(SECRET);
  });
});

describe('CORS', () => {
  it('allows the configured origin and exposes the rate-limit and violation headers', async () => {
    const res = await fetch(`${proxy.url}/products`, { headers: { origin: PAGE_ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const exposed = res.headers.get('access-control-expose-headers')!.split(', ');
    expect(exposed).toEqual(
      expect.arrayContaining([
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'retry-after',
        VIOLATIONS_HEADER,
      ]),
    );
  });

  it('refuses other origins with a 403 JSON error and does not call upstream', async () => {
    const before = seen.length;
    const res = await fetch(`${proxy.url}/products`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect((await res.json()) as { error: string }).toEqual({
      error: expect.stringContaining('https://evil.example is not allowed'),
    });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(seen.length).toBe(before);
  });

  it('answers preflights locally', async () => {
    const before = seen.length;
    const res = await fetch(`${proxy.url}/product-parts/search`, {
      method: 'OPTIONS',
      headers: {
        origin: PAGE_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(PAGE_ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, accept, prefer');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(seen.length).toBe(before);
  });
});

describe('validation', () => {
  it('reports a violation with its pointer, signals the count, and leaves the body alone', async () => {
    const res = await fetch(`${proxy.url}/products/P1`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(BROKEN_PRODUCT);
    expect(Number(res.headers.get(VIOLATIONS_HEADER))).toBeGreaterThanOrEqual(1);
    const violation = sink.events('violation').find((e) => e.operation === 'getProduct');
    expect(violation).toMatchObject({
      method: 'GET',
      url: `${upstream.url}/products/P1`,
      status: 200,
      pointer: '/title',
      rule: 'schema',
      expected: 'type: string',
      actual: 123,
      source: 'documented',
      severity: 'failure',
    });
  });

  it('counts requests and violations at /__proxy/stats', async () => {
    const stats = (await (await fetch(`${proxy.origin}/__proxy/stats`)).json()) as {
      requests: number;
      violations: number;
      byOperation: Record<string, { violations: number }>;
    };
    expect(stats.requests).toBeGreaterThan(0);
    expect(stats.violations).toBeGreaterThanOrEqual(1);
    expect(stats.byOperation.getProduct.violations).toBeGreaterThanOrEqual(1);
  });

  it('passes a conforming response with a zero count', async () => {
    const res = await fetch(`${proxy.url}/products/missing`);
    expect(res.status).toBe(404);
    expect(res.headers.get(VIOLATIONS_HEADER)).toBe('0');
  });

  it('holds every success to a JSON body, as the suite does; the rate-limit headers are optional ("may")', async () => {
    const noHeaders = await fetch(`${proxy.url}/product-parts/attributes`);
    expect(noHeaders.headers.get(VIOLATIONS_HEADER)).toBe('0');
    const html = await fetch(`${proxy.url}/documents`);
    expect(await html.text()).toBe('<html>maintenance</html>');
    expect(html.headers.get(VIOLATIONS_HEADER)).toBe('2');
    const rules = sink
      .events('violation')
      .filter((e) => e.operation === 'listProductPartAttributes' || e.operation === 'listDocuments')
      .map((e) => [e.operation, e.rule, e.pointer, e.source, e.severity]);
    expect(rules).toEqual([
      ['listDocuments', 'content-type', 'header:content-type', 'documented', 'failure'],
      ['listDocuments', 'json', '', 'documented', 'failure'],
    ]);
  });

  it('reports undeclared fields as warnings, not violations', async () => {
    const res = await fetch(`${proxy.url}/documents/types`);
    expect(res.status).toBe(200);
    expect(res.headers.get(VIOLATIONS_HEADER)).toBe('0');
    expect(sink.events('undeclared-field')).toContainEqual(
      expect.objectContaining({
        operation: 'listDocumentTypes',
        pointer: '/nextCursor',
        actual: 'c2',
        severity: 'warning',
        source: 'reference',
      }),
    );
  });

  it('passes a body nested beyond the stack through instead of failing', async () => {
    const proxyCap = await startProxy({
      upstream: upstream.url,
      apiKey: SECRET,
      log: sink.log,
      signalViolations: true,
    });
    try {
      const res = await fetch(`${proxyCap.url}/packages/DEEP`);
      expect(res.status).toBe(404);
      expect((await res.text()).length).toBe(200_000 + '{"error":"x","deep":}'.length);
    } finally {
      await proxyCap.close();
    }
  });

  it('passes JSON over the size cap through whole, unvalidated, with a warning', async () => {
    const res = await fetch(`${proxy.url}/packages`);
    const body = (await res.json()) as { extra: string };
    expect(body.extra).toHaveLength(2048);
    expect(res.headers.get(VIOLATIONS_HEADER)).toBeNull();
    expect(
      sink
        .events('unvalidated')
        .some(
          (e) => e.operation === 'listPackages' && String(e.reason).includes('over 1024 bytes'),
        ),
    ).toBe(true);
  });

  it('forwards POST bodies', async () => {
    const res = await fetch(`${proxy.url}/product-parts/cross-reference`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ partNumbers: ['LM358'] }),
    });
    expect(res.status).toBe(200);
    expect(lastSeen().body).toBe('{"partNumbers":["LM358"]}');
    expect(res.headers.get(VIOLATIONS_HEADER)).toBe('0');
  });
});

describe('the live service misbehaving', () => {
  it('passes a 429 and its Retry-After through unchanged', async () => {
    const res = await fetch(`${proxy.url}/boards-kits`);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await res.json()).toEqual({ error: 'Rate limit exceeded', code: 429, retry_after: 7 });
    expect(res.headers.get(VIOLATIONS_HEADER)).toBe('0');
  });

  it('answers 504 JSON when the live service is too slow', async () => {
    const res = await fetch(`${proxy.url}/software-tools`);
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ error: 'upstream timed out after 300 ms' });
  });

  it('answers 504 JSON when a JSON body stalls half-way', async () => {
    const res = await fetch(`${proxy.url}/software-tools/stalled`);
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({
      error: 'upstream timed out after 300 ms (while sending the body)',
    });
  });

  it('answers 502 JSON when the live service is unreachable', async () => {
    const gone = await serveApp(new Hono());
    await gone.close();
    const orphan = await startProxy({ upstream: gone.url, apiKey: SECRET, log: sink.log });
    try {
      const res = await fetch(`${orphan.url}/products`);
      expect(res.status).toBe(502);
      const body = (await res.json()) as { error: string };
      expect(body.error).toMatch(/^upstream unreachable: ECONNREFUSED/);
      expect(body.error).not.toContain(SECRET);
    } finally {
      await orphan.close();
    }
  });

  it('streams downloads without buffering them, with their length and disposition', async () => {
    const res = await fetch(`${proxy.url}/documents/download/D1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(FILE_CHUNK.length * 2));
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="d1.pdf"');
    expect(res.headers.get(VIOLATIONS_HEADER)).toBe('0');
    const reader = res.body!.getReader();
    let received = 0;
    // The upstream holds back the second half until we have most of the first (the key scanner
    // keeps the last few hundred bytes until more arrive, so an echoed key is seen whole).
    while (received < FILE_CHUNK.length / 2) received += (await reader.read()).value!.byteLength;
    releaseDownload();
    for (let r = await reader.read(); !r.done; r = await reader.read())
      received += r.value.byteLength;
    expect(received).toBe(FILE_CHUNK.length * 2);
  });
});

describe('recording', () => {
  it('writes conforming JSON responses only', () => {
    const recorded = readdirSync(recordings).sort();
    expect(recorded).toEqual(
      expect.arrayContaining(['crossReferenceProductParts', 'getProduct', 'listProducts']),
    );
    // getProduct has only the 404 of /products/missing: the broken P1 and the key-echoing /products/echo were refused.
    expect(
      readdirSync(join(recordings, 'getProduct')).filter((f) => !f.endsWith('.body.json')),
    ).toHaveLength(1);
    expect(sink.events('not-recorded')).toContainEqual(
      expect.objectContaining({
        operation: 'getProduct',
        url: `${upstream.url}/products/echo`,
        reason: expect.stringContaining('echoed the API key'),
      }),
    );
    expect(recorded).not.toContain('listBoardsKits');
    expect(
      sink
        .events('not-recorded')
        .some((e) => e.operation === 'getProduct' && String(e.reason).includes('violates')),
    ).toBe(true);
  });

  it('does not record a body with an undeclared field that looks personal', async () => {
    const res = await fetch(`${proxy.url}/packages/PKG1`);
    expect(res.status).toBe(404);
    expect(readdirSync(recordings)).not.toContain('getPackage');
    expect(sink.events('not-recorded')).toContainEqual(
      expect.objectContaining({
        operation: 'getPackage',
        severity: 'warning',
        reason: expect.stringContaining('/contactEmail may hold personal data'),
      }),
    );
  });
});
