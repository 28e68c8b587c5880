/**
 * @module proxy/hardening.test
 * The proxy as an attacker or an unlucky user meets it, over real HTTP in front of a stand-in
 * upstream that records what reaches it: DNS rebinding (foreign Host names), client-address and
 * admin headers, paths with encoded separators or dot segments, the key echoed in other
 * encodings (bodies, headers, streamed downloads), a recordings directory that breaks while
 * running, a bad key or recordings path at startup, and clients that hold the proxy open at
 * shutdown. Each test asserts that nothing reached the upstream (or the client) that must not.
 */
import type { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../contract/index.js';
import { parseProxyArgs } from './args.js';
import { UsageError } from '../usage.js';
import { runProxyCli } from './cli.js';
import { expectConsole } from '../testing/expected-output.js';
import { startProxy, type RunningProxy } from './listen.js';
import type { UpstreamFetch } from './upstream.js';
import {
  logSink,
  rawGet,
  recordingUpstream,
  serveApp,
  type SeenRequest,
  type Served,
} from './testdata/servers.js';

const SECRET = 'demo-live-key/7f';
const EMPTY_PAGE = { data: [], pagination: { offset: 0, limit: 10, total: 0, has_more: false } };
const RATE_HEADERS = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '99' };

/** `\u0064\u0065...`: every character JSON-escaped, as a JSON encoder with ASCII-only output might write it. */
const jsonEscaped = (text: string) =>
  [...text].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
/** Every character percent-encoded, in upper-case hex. */
const percentEncoded = (text: string) =>
  [...text].map((ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`).join('');
/** The forms an echo may take, one per test case. */
const ECHOES: Record<string, string> = {
  raw: SECRET,
  'JSON-escaped': jsonEscaped(SECRET),
  'JSON-escaped first letter only': `\\u0064${SECRET.slice(1)}`,
  'percent-encoded': percentEncoded(SECRET),
  encodeURIComponent: encodeURIComponent(SECRET),
  'HTML character references': [...SECRET].map((ch) => `&#${ch.charCodeAt(0)};`).join(''),
  'escaped slash': SECRET.replace('/', '\\/'),
};

const seen: SeenRequest[] = [];
let releaseHeld: () => void = () => {};

function upstreamApp(): Hono {
  const app = recordingUpstream(seen);
  app.get(`${BASE_PATH}/products`, (c) => c.json(EMPTY_PAGE, 200, RATE_HEADERS));
  // The echo's form is chosen by the query, so each case is its own request.
  app.get(`${BASE_PATH}/products/echo`, (c) =>
    c.body(`{"error":"key ${ECHOES[c.req.query('form')!]} is not allowed here"}`, 404, {
      'content-type': 'application/json',
    }),
  );
  app.get(`${BASE_PATH}/products/echo-header`, (c) =>
    c.json({ error: 'Product "echo-header" not found' }, 404, {
      'x-debug': `key=${percentEncoded(SECRET)}`,
    }),
  );
  app.get(`${BASE_PATH}/documents/download/LEAK`, (c) => {
    c.header('content-type', 'application/pdf');
    return stream(c, async (s) => {
      await s.write('A'.repeat(10_000));
      // The key split across two chunks, JSON-escaped in the second half.
      await s.write(`trailer ${SECRET.slice(0, 5)}`);
      await s.write(`${jsonEscaped(SECRET.slice(5))} end`);
    });
  });
  // Compressed although the proxy asked for identity: fetch decodes it before the scan.
  const gzipped = (body: string, contentType: string) =>
    new Response(gzipSync(body), {
      headers: { 'content-type': contentType, 'content-encoding': 'gzip' },
    });
  app.get(`${BASE_PATH}/products/echo-gzip`, () =>
    gzipped(`{"error":"key ${SECRET} is not allowed here"}`, 'application/json'),
  );
  app.get(`${BASE_PATH}/documents/download/GZIP`, () =>
    gzipped(`%PDF-1.4 ${'A'.repeat(10_000)} ${SECRET} end`, 'application/pdf'),
  );
  app.get(
    `${BASE_PATH}/software-tools/held`,
    () => new Promise<Response>((resolve) => (releaseHeld = () => resolve(new Response('{}')))),
  );
  return app;
}

let upstream: Served;
let proxy: RunningProxy;
const sink = logSink();
let recordings: string;

beforeAll(async () => {
  upstream = await serveApp(upstreamApp());
  recordings = mkdtempSync(join(tmpdir(), 'proxy-hardening-'));
  proxy = await startProxy({
    upstream: upstream.url,
    apiKey: SECRET,
    allowedHosts: ['dev.example.test'],
    apiVersion: 'unreleased',
    recordingsDir: join(recordings, 'rec'),
    log: sink.log,
  });
});

afterAll(async () => {
  await proxy?.close();
  await upstream?.close();
  rmSync(recordings, { recursive: true, force: true });
});

const port = () => new URL(proxy.origin).port;

describe('DNS rebinding: the Host header', () => {
  it.each(['evil.example', 'evil.example:4020', 'localhost.evil.example', '127.0.0.1.nip.io'])(
    'refuses Host %s with a 403 JSON error, forwarding nothing',
    async (host) => {
      const before = seen.length;
      const res = await rawGet(proxy.origin, `${BASE_PATH}/products`, { host });
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.body)).toEqual({
        error: expect.stringContaining('add a name with --proxy-host'),
      });
      // A rebinding page can read this answer: it must not learn the configured names.
      expect(res.body).not.toContain('dev.example.test');
      expect(seen.length).toBe(before);
    },
  );

  it('guards the stats too (a rebinding page must not read them)', async () => {
    expect(
      (await rawGet(proxy.origin, '/__proxy/stats', { host: `evil.example:${port()}` })).status,
    ).toBe(403);
  });

  it.each([
    'localhost',
    'LOCALHOST.',
    '127.0.0.1',
    '127.9.8.7',
    '[::1]',
    'dev.example.test',
    'Dev.Example.Test',
  ])('answers Host %s (loopback or --proxy-host), with or without the port', async (name) => {
    for (const host of [name, `${name}:${port()}`]) {
      const res = await rawGet(proxy.origin, `${BASE_PATH}/products`, { host });
      expect(res.status, host).toBe(200);
      expect(JSON.parse(res.body)).toEqual(EMPTY_PAGE);
    }
  });

  it('refuses a --proxy-host that is not a bare host name', () => {
    for (const bad of [
      'http://dev.example.test',
      'dev.example.test:4020',
      'dev.example.test/x',
      'a b',
    ]) {
      expect(
        () =>
          parseProxyArgs(['--proxy', upstream.url, '--proxy-host', bad], {
            WEB_DATA_API_KEY: SECRET,
          }),
        bad,
      ).toThrow(/--proxy-host .* is not a host name/);
    }
  });
});

describe('forwarding', () => {
  it('strips client-address headers and the mock admin token before the upstream', async () => {
    const sent = {
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-host': 'evil.example',
      forwarded: 'for=203.0.113.9',
      'x-real-ip': '203.0.113.9',
      via: '1.1 evil',
      'x-mock-admin-token': 'admin-secret',
      'true-client-ip': '203.0.113.9',
      accept: 'application/json',
    };
    const res = await rawGet(proxy.origin, `${BASE_PATH}/products`, sent);
    expect(res.status).toBe(200);
    const received = seen[seen.length - 1].headers;
    for (const name of Object.keys(sent).filter((n) => n !== 'accept'))
      expect(received, name).not.toHaveProperty(name);
    expect(received.accept).toBe('application/json');
    expect(received['x-api-key']).toBe(SECRET);
  });

  it.each([
    `${BASE_PATH}/products/a%2f..%2f..%2fetc`,
    `${BASE_PATH}/products/a%2F..%2F..%2Fetc`,
    `${BASE_PATH}/products/a%5c..%5cb`,
    `${BASE_PATH}/%2e%2e%2f%2e%2e%2f__mock%2fconfig`,
    `${BASE_PATH}/%2e%2e/%2e%2e/__mock/config`,
    `${BASE_PATH}/products/.%2E/.%2e/__mock/config`,
    `${BASE_PATH}/products/../../__mock/config`,
    `${BASE_PATH}/products/./x`,
    `${BASE_PATH}/products/..;/..;/__mock/config`,
    `${BASE_PATH}/products/.%2e;jsessionid=1/x`,
    `${BASE_PATH}/products/a%252f..%252fb`,
    `${BASE_PATH}/products/a%00b`,
    `${BASE_PATH}/products/a%zzb`,
  ])('refuses %s with a JSON 400, never forwarding it with the key', async (path) => {
    const before = seen.length;
    const res = await rawGet(proxy.origin, path);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      error: expect.stringMatching(/^path refused, not forwarded: /),
    });
    expect(seen.length).toBe(before);
  });

  it('still forwards identifiers with encoded characters that are not separators', async () => {
    const res = await rawGet(proxy.origin, `${BASE_PATH}/products/echo?form=raw&x=a%2Fb`);
    expect(res.status).toBe(404);
    expect(seen[seen.length - 1].path).toBe(`${BASE_PATH}/products/echo?form=raw&x=a%2Fb`);
  });
});

describe('the key echoed by the live service', () => {
  it.each(Object.keys(ECHOES))(
    'is scrubbed from the body when %s, logged as key-echoed, and never recorded',
    async (form) => {
      const echoesBefore = sink.events('key-echoed').length;
      const res = await fetch(`${proxy.url}/products/echo?form=${encodeURIComponent(form)}`);
      const text = await res.text();
      expect(res.status).toBe(404);
      expect(JSON.parse(text)).toEqual({ error: 'key *** is not allowed here' });
      expect(sink.events('key-echoed')).toHaveLength(echoesBefore + 1);
      expect(sink.events('not-recorded').at(-1)).toMatchObject({
        operation: 'getProduct',
        reason: expect.stringContaining('echoed the API key'),
      });
    },
  );

  it('drops a header carrying it percent-encoded', async () => {
    const res = await fetch(`${proxy.url}/products/echo-header`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-debug')).toBeNull();
    expect(sink.events('key-echoed').at(-1)).toMatchObject({
      url: `${upstream.url}/products/echo-header`,
      message: expect.stringContaining('headers'),
    });
  });

  it('cuts a streamed download before the key (split across chunks, JSON-escaped) leaves the proxy', async () => {
    // @hono/node-server logs the error that cut the stream: expected here.
    expectConsole('error', /the live body contained the API key; stream cut/);
    const res = await fetch(`${proxy.url}/documents/download/LEAK`);
    expect(res.status).toBe(200);
    const received: Buffer[] = [];
    const reader = res.body!.getReader();
    await expect(
      (async () => {
        for (let r = await reader.read(); !r.done; r = await reader.read())
          received.push(Buffer.from(r.value));
      })(),
    ).rejects.toThrow();
    const text = Buffer.concat(received).toString('latin1');
    expect(text).not.toContain(SECRET.slice(0, 5));
    expect(sink.events('key-echoed').at(-1)).toMatchObject({
      operation: 'downloadDocument',
      message: expect.stringContaining('stream was cut'),
    });
  });

  it('is scrubbed from a compressed body too (decoded before the scan, passed on uncompressed), and cut from a compressed download', async () => {
    expectConsole('error', /the live body contained the API key; stream cut/);
    const echoesBefore = sink.events('key-echoed').length;
    const res = await fetch(`${proxy.url}/products/echo-gzip`);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.json()).toEqual({ error: 'key *** is not allowed here' });
    const download = await fetch(`${proxy.url}/documents/download/GZIP`);
    await expect(download.arrayBuffer()).rejects.toThrow();
    expect(sink.events('key-echoed')).toHaveLength(echoesBefore + 2);
  });

  it('appears in no log line and no recording in any form', () => {
    const files = readdirSync(join(recordings, 'rec'), {
      recursive: true,
      withFileTypes: true,
    }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0);
    const everything = [
      ...sink.lines,
      ...files.map((f) => readFileSync(join(f.parentPath, f.name), 'utf8')),
    ].join('\n');
    for (const form of Object.values(ECHOES)) expect(everything).not.toContain(form);
  });
});

describe('recording never breaks serving', () => {
  it('serves every answer when the recordings directory breaks while running, logs once, counts each failure and each request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proxy-broken-rec-'));
    const lines = logSink();
    const recording = await startProxy({
      upstream: upstream.url,
      apiKey: SECRET,
      recordingsDir: join(dir, 'rec'),
      log: lines.log,
    });
    try {
      // The directory is replaced by a regular file (works as root too, unlike chmod).
      rmSync(join(dir, 'rec'), { recursive: true });
      writeFileSync(join(dir, 'rec'), 'not a directory');
      for (let i = 0; i < 3; i += 1) {
        const res = await fetch(`${recording.url}/products?limit=${i + 1}`);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual(EMPTY_PAGE);
      }
      expect(lines.events('record-failed')).toHaveLength(1);
      expect(lines.events('record-failed')[0]).toMatchObject({
        severity: 'failure',
        error: expect.stringMatching(/cannot write .*rec.*\((ENOTDIR|EEXIST)\)/),
      });
      expect(lines.events('proxy-error')).toEqual([]);
      const stats = (await (await fetch(`${recording.origin}/__proxy/stats`)).json()) as Record<
        string,
        number
      >;
      expect(stats).toMatchObject({ requests: 3, recorded: 0, recordFailures: 3, proxyErrors: 0 });
    } finally {
      await recording.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts requests that were refused or failed, too', async () => {
    const lines = logSink();
    const counted = await startProxy({ upstream: upstream.url, apiKey: SECRET, log: lines.log });
    try {
      await rawGet(counted.origin, `${BASE_PATH}/products`, { host: 'evil.example' });
      await rawGet(counted.origin, `${BASE_PATH}/products/a%2f..%2fb`);
      await fetch(`${counted.origin}/elsewhere`);
      await fetch(`${counted.url}/products`);
      const stats = (await (await fetch(`${counted.origin}/__proxy/stats`)).json()) as Record<
        string,
        number
      >;
      expect(stats).toMatchObject({ requests: 4, refused: 3 });
      expect(lines.events('request').map((e) => [e.status, e.forwarded])).toEqual([
        [403, false],
        [400, false],
        [404, false],
        [200, true],
      ]);
    } finally {
      await counted.close();
    }
  });

  it('counts a request that failed inside the proxy (500) as a request and a proxy error', async () => {
    const lines = logSink();
    // A live answer the proxy cannot read at all: the error handler answers, the count must still see it.
    const broken: UpstreamFetch = async () =>
      Object.defineProperty(new Response('{}'), 'headers', {
        get: () => {
          throw new Error('unreadable headers');
        },
      });
    const failing = await startProxy({
      upstream: upstream.url,
      apiKey: SECRET,
      log: lines.log,
      fetch: broken,
    });
    try {
      for (let i = 0; i < 3; i += 1)
        expect((await fetch(`${failing.url}/products`)).status).toBe(500);
      const stats = (await (await fetch(`${failing.origin}/__proxy/stats`)).json()) as Record<
        string,
        number
      >;
      expect(stats).toMatchObject({ requests: 3, proxyErrors: 3, refused: 0 });
      expect(lines.events('request').map((e) => e.status)).toEqual([500, 500, 500]);
    } finally {
      await failing.close();
    }
  });

  it.each(['--recordings', '--fixtures'])(
    'refuses at startup a %s path below a regular file, as a usage error naming the flag given',
    async (flag) => {
      const dir = mkdtempSync(join(tmpdir(), 'proxy-file-'));
      try {
        writeFileSync(join(dir, 'file'), 'x');
        const start = runProxyCli(
          ['--proxy', upstream.url, '--port', '0', flag, join(dir, 'file', 'rec')],
          { WEB_DATA_API_KEY: SECRET },
          () => {},
        );
        await expect(start).rejects.toThrow(UsageError);
        await expect(start).rejects.toThrow(
          new RegExp(
            `^${flag}: cannot create the recordings directory .*file/rec \\((ENOTDIR|EEXIST)\\)$`,
          ),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('the key at startup', () => {
  it.each([
    ['a newline', 'abc\ndef', /a control character at position 4 of 7/],
    ['a space', 'abc def', /a space at position 4 of 7/],
    ['a non-ASCII character', 'abcé', /a non-ASCII character at position 4 of 4/],
  ])('refuses a key with %s, naming the position, never the key', (_what, key, message) => {
    const error = (() => {
      try {
        parseProxyArgs(['--proxy', upstream.url], { WEB_DATA_API_KEY: key });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(UsageError);
    expect(error!.message).toMatch(/the API key is not a valid header value/);
    expect(error!.message).toMatch(message);
    expect(error!.message).not.toContain(key.trim());
  });
});

describe('shutdown', () => {
  it('closes a client that never sends a request and cuts a request still in flight after the grace', async () => {
    const closing = await startProxy({
      upstream: upstream.url,
      apiKey: SECRET,
      upstreamTimeoutMs: 600_000,
      graceMs: 200,
      log: () => {},
    });
    const { port: p } = new URL(closing.origin);
    const silent: Socket = connect(Number(p), '127.0.0.1');
    await new Promise((resolve) => silent.once('connect', resolve));
    const silentClosed = new Promise((resolve) => silent.once('close', resolve));
    const inFlight = fetch(`${closing.url}/software-tools/held`).then(
      (res) => res.status,
      (error: Error) => error.name,
    );
    // Wait until the held request has reached the upstream, so it is really in flight.
    while (!seen.some((s) => s.path.endsWith('/software-tools/held')))
      await new Promise((resolve) => setTimeout(resolve, 10));
    // Resolves at all only if neither connection can keep the server open (the test timeout is the bound).
    await closing.close();
    await silentClosed;
    expect(await inFlight).toBe('TypeError');
    releaseHeld();
  });
});
