/**
 * @module proxy/boundaries.test
 * What may cross the proxy, over real HTTP in front of a stand-in upstream that records what
 * reaches it: only the allow-listed request headers go up; a cross-site request without an
 * allowed Origin is refused before it spends the user's quota; a live header whose NAME carries
 * the key never reaches the browser; a body in a Content-Encoding the proxy cannot decode (so
 * cannot scan for the key) is refused with a 502, logged and not recorded.
 */
import type { Hono } from 'hono';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../contract/index.js';
import { FORWARDED_REQUEST_HEADERS } from './headers.js';
import { startProxy, type RunningProxy } from './listen.js';
import {
  logSink,
  rawGet,
  recordingUpstream,
  serveApp,
  type SeenRequest,
  type Served,
} from './testdata/servers.js';

/** Token characters only, with capitals: it can stand in a header name, which arrives lower-cased. */
const SECRET = 'Live-Key-7fQ2x';
const PAGE_ORIGIN = 'http://localhost:5173';
const EMPTY_PAGE = { data: [], pagination: { offset: 0, limit: 10, total: 0, has_more: false } };
const LEAK = JSON.stringify({ error: `key ${SECRET} is not allowed here` });

/** zstd compression where this Node's zlib has it (Node 22.15 and later), to show it is decoded. */
const zstdCompress = (zlib as { zstdCompressSync?: (data: string) => Buffer }).zstdCompressSync;

const seen: SeenRequest[] = [];

function upstreamApp(): Hono {
  const app = recordingUpstream(seen);
  app.get(`${BASE_PATH}/products`, (c) => c.json(EMPTY_PAGE));
  app.get(`${BASE_PATH}/products/name-echo`, (c) =>
    c.json({ error: 'Product "name-echo" not found' }, 404, {
      [`x-${SECRET}`]: '1',
      [`x-debug-${encodeURIComponent(SECRET)}-seen`]: 'yes',
    }),
  );
  // The body's coding is chosen by the query (gzip bytes under any label), as a misbehaving service might send.
  app.get(`${BASE_PATH}/products/encoded`, (c) => {
    const label = c.req.query('label')!;
    const bytes =
      c.req.query('bytes') === 'zstd' && zstdCompress ? zstdCompress(LEAK) : zlib.gzipSync(LEAK);
    return new Response(new Uint8Array(bytes), {
      status: 404,
      headers: { 'content-type': 'application/json', 'content-encoding': label },
    });
  });
  app.get(
    `${BASE_PATH}/documents/download/ENCODED`,
    () =>
      new Response(new Uint8Array(zlib.gzipSync(`%PDF-1.4 ${'A'.repeat(10_000)} ${SECRET} end`)), {
        headers: { 'content-type': 'application/pdf', 'content-encoding': 'x-custom' },
      }),
  );
  return app;
}

let upstream: Served;
let proxy: RunningProxy;
let recordings: string;
const sink = logSink();

beforeAll(async () => {
  upstream = await serveApp(upstreamApp());
  recordings = mkdtempSync(join(tmpdir(), 'proxy-boundaries-'));
  proxy = await startProxy({
    upstream: upstream.url,
    apiKey: SECRET,
    allowedOrigins: [PAGE_ORIGIN],
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

describe('request headers: an allow-list', () => {
  it('forwards only what a browser request to the API may carry; client-address, override and key headers stay behind', async () => {
    const refused = {
      'client-ip': '203.0.113.9',
      'fastly-client-ip': '203.0.113.9',
      'x-originating-ip': '203.0.113.9',
      'x-remote-addr': '203.0.113.9',
      'x-remote-ip': '203.0.113.9',
      'x-envoy-external-address': '203.0.113.9',
      x_api_key: 'someone-elses-key',
      'x-original-url': '/web-data/v1/other',
      'x-rewrite-url': '/web-data/v1/other',
      'x-http-method-override': 'DELETE',
      'x-method-override': 'DELETE',
      'x-custom-anything': 'x',
      'user-agent': 'Mozilla/5.0 (the browser)',
    };
    const allowed = {
      accept: 'application/json',
      'accept-language': 'de-DE',
      'if-none-match': '"abc"',
      prefer: 'code=200',
    };
    const res = await rawGet(proxy.origin, `${BASE_PATH}/products`, { ...refused, ...allowed });
    expect(res.status).toBe(200);
    const received = seen.at(-1)!.headers;
    for (const name of Object.keys(refused))
      expect(received[name], name).not.toBe(refused[name as keyof typeof refused]);
    for (const [name, value] of Object.entries(allowed)) expect(received[name], name).toBe(value);
    expect(received['x-api-key']).toBe(SECRET);
    // What reached the live side: the allow-list, what the proxy sets, what fetch adds (`pragma` beside a conditional header).
    const own = [
      'x-api-key',
      'accept-encoding',
      'host',
      'connection',
      'user-agent',
      'sec-fetch-mode',
      'pragma',
    ];
    for (const name of Object.keys(received))
      expect([...FORWARDED_REQUEST_HEADERS, ...own], name).toContain(name);
  });
});

describe('cross-site requests without an allowed Origin', () => {
  it.each(['cross-site', 'same-site'])(
    'are refused with a 403 naming the rule when Sec-Fetch-Site is %s, never forwarded',
    async (site) => {
      const before = seen.length;
      const res = await rawGet(proxy.origin, `${BASE_PATH}/products`, { 'sec-fetch-site': site });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toEqual({
        error: expect.stringMatching(/without an Origin.*--proxy-origin/),
      });
      expect(seen.length).toBe(before);
    },
  );

  it.each([
    ['same-origin', {}],
    ['none', {}],
    ['cross-site', { origin: PAGE_ORIGIN }],
  ])('are forwarded when Sec-Fetch-Site is %s (or the Origin is allowed)', async (site, extra) => {
    const res = await rawGet(proxy.origin, `${BASE_PATH}/products`, {
      'sec-fetch-site': site,
      ...extra,
    });
    expect(res.status).toBe(200);
  });
});

describe('a live header whose name carries the key', () => {
  it('is dropped (raw or percent-encoded, whatever the case), and logged as a key echo', async () => {
    const echoes = sink.events('key-echoed').length;
    const res = await rawGet(proxy.origin, `${BASE_PATH}/products/name-echo`);
    expect(res.status).toBe(404);
    const names = Object.keys(res.headers).join('\n');
    expect(names).not.toContain(SECRET.toLowerCase());
    expect(names).not.toContain(encodeURIComponent(SECRET).toLowerCase());
    expect(sink.events('key-echoed')).toHaveLength(echoes + 1);
    expect(sink.events('key-echoed').at(-1)).toMatchObject({
      message: expect.stringContaining('headers'),
    });
  });
});

describe('Content-Encoding', () => {
  it.each(['x-custom', 'zstd', 'gzip, x-custom', 'x-custom, gzip'])(
    'refuses a body labelled %s that it cannot decode (so cannot scan) with a 502, logged, not recorded',
    async (label) => {
      const before = readdirSync(recordings, { recursive: true }).length;
      const res = await rawGet(
        proxy.origin,
        `${BASE_PATH}/products/encoded?label=${encodeURIComponent(label)}`,
      );
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body)).toEqual({ error: expect.stringMatching(/Content-Encoding/) });
      expect(sink.events('upstream-error').at(-1)).toMatchObject({
        status: 502,
        error: expect.stringContaining('Content-Encoding'),
      });
      expect(readdirSync(recordings, { recursive: true }).length).toBe(before);
    },
  );

  it('refuses a download it cannot decode before sending any of it', async () => {
    const res = await rawGet(proxy.origin, `${BASE_PATH}/documents/download/ENCODED`);
    expect(res.status).toBe(502);
    expect(res.body).not.toContain('%PDF');
  });

  it.each(['gzip', 'x-gzip', 'GZIP', 'identity, gzip'])(
    'decodes a body labelled %s and scrubs the key from it',
    async (label) => {
      const res = await rawGet(
        proxy.origin,
        `${BASE_PATH}/products/encoded?label=${encodeURIComponent(label)}`,
      );
      expect(res.status).toBe(404);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(res.body)).toEqual({ error: 'key *** is not allowed here' });
    },
  );

  it.runIf(zstdCompress)('decodes zstd where this Node has it, and scrubs the key', async () => {
    const res = await rawGet(proxy.origin, `${BASE_PATH}/products/encoded?label=zstd&bytes=zstd`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ error: 'key *** is not allowed here' });
  });
});
