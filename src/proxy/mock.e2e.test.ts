/**
 * @module proxy/mock.e2e.test
 * The proxy in front of the real mock (standing in for the live service), over real HTTP: a
 * session of reads and searches passes with no violations and unchanged bytes, 429 and downloads
 * pass through, and the recorded session replays byte for byte through `createReplayMiddleware`.
 */
import { Hono } from 'hono';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningServer } from '../server/listen.js';
import { VIOLATIONS_HEADER } from './app.js';
import { startProxy, type RunningProxy } from './listen.js';
import { createReplayMiddleware, REPLAYED_HEADER } from '../recordings/index.js';
import { logSink, serveApp } from './testdata/servers.js';

const KEY = 'demo-unlimited-key';
const NO_RECORDING_STATUS = 599;

interface Step {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

interface Seen {
  step: Step;
  status: number;
  bytes: Buffer;
  headers: Headers;
}

let mock: RunningServer;
let proxy: RunningProxy;
const sink = logSink();
let recordings: string;
const session: Seen[] = [];

async function call(base: string, step: Step, headers: Record<string, string> = {}): Promise<Seen> {
  const res = await fetch(`${base}${step.path}`, {
    method: step.method,
    headers: {
      accept: 'application/json',
      ...(step.body ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: step.body ? JSON.stringify(step.body) : undefined,
  });
  return {
    step,
    status: res.status,
    bytes: Buffer.from(await res.arrayBuffer()),
    headers: res.headers,
  };
}

const json = <T>(seen: Seen): T => JSON.parse(seen.bytes.toString('utf8')) as T;

beforeAll(async () => {
  recordings = mkdtempSync(join(tmpdir(), 'proxy-session-'));
  mock = await startMockServer({ apiVersion: 'unreleased', validateResponses: true });
  proxy = await startProxy({
    upstream: mock.url,
    apiKey: KEY,
    apiVersion: 'unreleased',
    recordingsDir: recordings,
    signalViolations: true,
    log: sink.log,
  });

  // A session that discovers its identifiers as a client would.
  const products = await call(proxy.url, { method: 'GET', path: '/products?limit=3' });
  session.push(products);
  const productId = json<{ data: { productId: string }[] }>(products).data[0].productId;
  const parts = await call(proxy.url, { method: 'GET', path: '/product-parts?limit=20' });
  session.push(parts);
  // An identifier with `#`, sent as `%23`: the proxy must forward and the replay match it encoded.
  const orderableId = json<{ data: { orderableId: string }[] }>(parts).data.find((p) =>
    p.orderableId.includes('#'),
  )!.orderableId;
  const steps: Step[] = [
    { method: 'GET', path: `/products/${encodeURIComponent(productId)}` },
    { method: 'GET', path: '/products?order=title&orderDirection=asc&limit=2&offset=1' },
    { method: 'GET', path: `/product-parts/${encodeURIComponent(orderableId)}` },
    { method: 'GET', path: '/product-parts/attributes?limit=3' },
    { method: 'GET', path: '/documents/types' },
    { method: 'GET', path: '/boards-kits?boardKitType=evaluation&limit=2' },
    { method: 'GET', path: '/products/no-such-product' },
    {
      method: 'POST',
      path: '/product-parts/cross-reference',
      body: { partNumbers: ['LM358N', 'NE555P'] },
    },
    { method: 'POST', path: '/product-parts/search', body: { productId, filters: [] } },
  ];
  for (const step of steps) session.push(await call(proxy.url, step));
});

afterAll(async () => {
  await proxy?.close();
  await mock?.close();
  rmSync(recordings, { recursive: true, force: true });
});

describe('proxy in front of the mock', () => {
  it('passes the session through with the statuses expected and no violations', () => {
    expect(session[4].step.path).toMatch(/^\/product-parts\/[^/]+%23/);
    expect(json<{ orderableId: string }>(session[4]).orderableId).toContain('#');
    expect(session.map((s) => s.status)).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 404, 200, 200,
    ]);
    for (const seen of session)
      expect(seen.headers.get(VIOLATIONS_HEADER), `${seen.step.method} ${seen.step.path}`).toBe(
        '0',
      );
    expect(sink.events('violation')).toEqual([]);
    expect(proxy.app.reporter.stats()).toMatchObject({
      violations: 0,
      inferredViolations: 0,
      upstreamErrors: 0,
    });
  });

  it('changes no byte of the bodies the mock sends', async () => {
    for (const seen of session.slice(0, 3)) {
      const direct = await call(mock.url, seen.step, { 'x-api-key': KEY });
      expect(direct.bytes.equals(seen.bytes), seen.step.path).toBe(true);
    }
  });

  it('keeps the key out of responses and logs', () => {
    for (const seen of session) {
      expect(seen.bytes.includes(KEY)).toBe(false);
      seen.headers.forEach((value) => expect(value).not.toContain(KEY));
    }
    expect(sink.lines.join('\n')).not.toContain(KEY);
  });

  it('passes the mock 429 through with Retry-After (forced with Prefer, as a QA client would)', async () => {
    const seen = await call(
      proxy.url,
      { method: 'GET', path: '/products' },
      { prefer: 'code=429' },
    );
    expect(seen.status).toBe(429);
    const body = json<{ code: number; retry_after: number }>(seen);
    expect(body.code).toBe(429);
    expect(seen.headers.get('retry-after')).toBe(String(body.retry_after));
    expect(seen.headers.get(VIOLATIONS_HEADER)).toBe('0');
  });

  it('streams a document download with its declared headers', async () => {
    const documents = json<{ data: { dcpDocumentId: string }[] }>(
      await call(proxy.url, { method: 'GET', path: '/documents?limit=1' }),
    );
    const url = `${proxy.url}/documents/download/${encodeURIComponent(documents.data[0].dcpDocumentId)}`;
    const res = await fetch(url);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    expect(res.headers.get(VIOLATIONS_HEADER)).toBe('0');
    // HEAD is routed to its own operation and checked on headers alone.
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(bytes.byteLength));
    expect(head.headers.get(VIOLATIONS_HEADER)).toBe('0');
    expect(
      sink
        .events('request')
        .some((e) => e.operation === 'checkDocumentDownload' && e.method === 'HEAD'),
    ).toBe(true);
  });
});

describe('recorded session', () => {
  it('is written as one recording per distinct request', () => {
    const metas = readdirSync(recordings).flatMap((op) =>
      readdirSync(join(recordings, op)).filter((f) => !f.endsWith('.body.json')),
    );
    // Every 2xx and the 404 of the session; the forced 429 is never recorded.
    expect(metas.length).toBeGreaterThanOrEqual(session.length);
    expect(readdirSync(recordings)).not.toContain('downloadDocument');
  });

  it('replays byte for byte through createReplayMiddleware, and falls through when nothing matches', async () => {
    const app = new Hono();
    app.use('/web-data/v1/*', createReplayMiddleware(recordings));
    app.all('*', (c) => c.json({ error: 'no recording' }, NO_RECORDING_STATUS as 500));
    const replay = await serveApp(app);
    try {
      for (const seen of session) {
        const again = await call(replay.url, seen.step);
        expect(again.status, seen.step.path).toBe(seen.status);
        expect(again.bytes.equals(seen.bytes), `${seen.step.method} ${seen.step.path}`).toBe(true);
        expect(again.headers.get('content-type')).toBe(seen.headers.get('content-type'));
      }
      // Same request, query in another order: the same recording.
      const reordered = await call(replay.url, {
        method: 'GET',
        path: '/products?offset=1&limit=2&orderDirection=asc&order=title',
      });
      expect(reordered.bytes.equals(session[3].bytes)).toBe(true);
      // A search with another body is another request.
      const other = await call(replay.url, {
        method: 'POST',
        path: '/product-parts/cross-reference',
        body: { partNumbers: ['OTHER'] },
      });
      expect(other.status).toBe(NO_RECORDING_STATUS);
      expect((await call(replay.url, { method: 'GET', path: '/products?limit=4' })).status).toBe(
        NO_RECORDING_STATUS,
      );
    } finally {
      await replay.close();
    }
  });

  it('is served by the mock started with --replay, behind its auth', async () => {
    const replaying = await startMockServer({
      apiVersion: 'unreleased',
      replayDir: recordings,
      validateResponses: true,
    });
    try {
      for (const seen of session) {
        const again = await call(replaying.url, seen.step, { 'x-api-key': KEY });
        expect(again.headers.get(REPLAYED_HEADER), seen.step.path).not.toBeNull();
        expect(again.bytes.equals(seen.bytes), seen.step.path).toBe(true);
      }
      const unauthenticated = await call(replaying.url, session[0].step);
      expect(unauthenticated.status).toBe(401);
      expect(
        (
          await call(
            replaying.url,
            { method: 'GET', path: '/products?limit=4' },
            { 'x-api-key': KEY },
          )
        ).headers.get(REPLAYED_HEADER),
      ).toBeNull();
    } finally {
      await replaying.close();
    }
  });
});
