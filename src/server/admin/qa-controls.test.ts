/**
 * @module admin/qa-controls.test
 * What the rate limits and QA controls promise, over real sockets where it matters: a request
 * holds its concurrent-connection slot until its body is written or its client goes away; a key
 * is charged the body bytes actually written; `Prefer` never uses up an armed fault; a request
 * without a valid key gets its 401 before any QA control acts; every QA delay and dribble ends
 * within one maximum duration.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningServer } from '../listen.js';
import { call, DEMO, sharedDataset, testApp, memoryParts } from '../../testing/mock-app.js';
import { parseLatency } from '../faults/actions.js';
import { ManualSleep } from '../../state/clock/clock.js';

const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
});

async function start(options: Parameters<typeof startMockServer>[0] = {}): Promise<RunningServer> {
  const server = await startMockServer({
    datasets: { production: sharedDataset() },
    validateResponses: true,
    ...options,
  });
  running.push(server);
  return server;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw HTTP/1.1 client: sends one request, resolves once the headers are in, counts body bytes. */
function rawRequest(
  server: RunningServer,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
) {
  const url = new URL(`${server.url}${path}`);
  const socket: Socket = connect(Number(url.port), url.hostname);
  let received = Buffer.alloc(0);
  let headerEnd = -1;
  const headersIn = new Promise<string>((resolve, reject) => {
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (headerEnd < 0) {
        headerEnd = received.indexOf('\r\n\r\n');
        if (headerEnd >= 0) resolve(received.subarray(0, headerEnd).toString('latin1'));
      }
    });
    socket.on('error', reject);
  });
  const lines = Object.entries({ host: url.host, ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.write(`${method} ${url.pathname}${url.search} HTTP/1.1\r\n${lines}\r\n`);
  return {
    socket,
    headersIn,
    bodyBytes: () => (headerEnd < 0 ? 0 : received.length - headerEnd - 4),
  };
}

const usage = (server: RunningServer, key = 'demo-production') =>
  memoryParts(server.app).limiter.snapshot()[key];

/** Polls until `check` holds (a socket's close reaches the server a moment after the client's). */
async function eventually(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error('condition not reached in time');
    await sleep(10);
  }
}

describe('the concurrent-connection slot', () => {
  it('is held until the body is written, and freed at once when the client goes away', async () => {
    const server = await start({ tierOverride: { concurrentConnections: 1 } });
    const slow = rawRequest(server, '/products?limit=100', {
      'x-api-key': DEMO.production,
      prefer: 'slow=64',
    });
    expect(await slow.headersIn).toMatch(/^HTTP\/1\.1 200/);
    await sleep(200);
    expect(usage(server).inFlight).toBe(1);
    const second = await fetch(`${server.url}/packages?limit=1`, {
      headers: { 'x-api-key': DEMO.production },
    });
    expect(second.status).toBe(429);
    expect((await second.json()).error).toContain('concurrent connections');
    slow.socket.destroy();
    await eventually(() => usage(server).inFlight === 0);
    expect(
      (await fetch(`${server.url}/packages?limit=1`, { headers: { 'x-api-key': DEMO.production } }))
        .status,
    ).toBe(200);
  });

  it('is freed at once, charged nothing, when the client goes away before the response is made (during a delay)', async () => {
    // The delay waits on a sleep this test drives: it ends when the test says, not after 5 s.
    const timers = new ManualSleep();
    const server = await start({
      tierOverride: { concurrentConnections: 1 },
      sleep: timers.sleep,
    });
    const waiting = rawRequest(server, '/packages?limit=1', {
      'x-api-key': DEMO.production,
      prefer: 'delay=5000',
    });
    await eventually(() => timers.waiting === 1);
    expect(usage(server).inFlight).toBe(1);
    waiting.socket.destroy();
    // Within the delay: the slot does not wait for the response that nobody will read.
    await eventually(() => usage(server).inFlight === 0);
    expect(usage(server).bytes).toBe(0);
    expect(
      (await fetch(`${server.url}/packages?limit=1`, { headers: { 'x-api-key': DEMO.production } }))
        .status,
    ).toBe(200);
    timers.advance(4999);
    expect(timers.waiting).toBe(1);
    // And once the delay is over and the abandoned request answered (journaled), it does not count the slot again.
    timers.advance(1);
    await eventually(() => memoryParts(server.app).journal.last().length === 2);
    expect(usage(server).inFlight).toBe(0);
  });
});

describe('data transfer is charged for the body bytes actually written', () => {
  it('charges a full body in full, a HEAD nothing, a cut body its first half, a dropped dribble what got out', async () => {
    const server = await start();
    const url = `${server.url}/products?limit=100`;
    const full = await fetch(url, { headers: { 'x-api-key': DEMO.production } });
    const length = (await full.arrayBuffer()).byteLength;
    await eventually(() => usage(server).inFlight === 0);
    expect(usage(server).bytes).toBe(length);

    memoryParts(server.app).limiter.reset();
    const head = rawRequest(
      server,
      '/products?limit=100',
      { 'x-api-key': DEMO.production },
      'HEAD',
    );
    expect(await head.headersIn).toContain(`content-length: ${length}`);
    await eventually(() => usage(server)?.inFlight === 0);
    expect(usage(server).bytes).toBe(0);
    head.socket.destroy();

    memoryParts(server.app).limiter.reset();
    const cut = rawRequest(server, '/products?limit=100', {
      'x-api-key': DEMO.production,
      prefer: 'truncate',
    });
    await cut.headersIn;
    await eventually(() => usage(server)?.inFlight === 0);
    expect(usage(server).bytes).toBe(Math.floor(length / 2));
    expect(cut.bodyBytes()).toBe(Math.floor(length / 2));

    memoryParts(server.app).limiter.reset();
    const dribble = rawRequest(server, '/products?limit=100', {
      'x-api-key': DEMO.production,
      prefer: 'slow=100',
    });
    await dribble.headersIn;
    await sleep(300);
    dribble.socket.destroy();
    await eventually(() => usage(server)?.inFlight === 0);
    const charged = usage(server).bytes;
    expect(charged).toBeGreaterThan(0);
    expect(charged).toBeLessThan(length / 10);
    expect(charged).toBeGreaterThanOrEqual(dribble.bodyBytes());
  });
});

describe('Prefer and armed faults', () => {
  it('a request answered by Prefer leaves the armed plan untouched; an unknown preference does not count', async () => {
    const app = await testApp();
    memoryParts(app).faults.arm({}, 5, { status: 500 });
    for (const prefer of ['retry-after=30', 'delay=0', 'code=200']) {
      expect((await call(app, '/packages?limit=1', { headers: { prefer } })).status, prefer).toBe(
        200,
      );
    }
    expect(memoryParts(app).faults.armed()[0].remaining).toBe(5);
    expect(
      (await call(app, '/packages?limit=1', { headers: { prefer: 'return=minimal' } })).status,
    ).toBe(500);
    expect(memoryParts(app).faults.armed()[0].remaining).toBe(4);
  });

  it('parses retry-after with the one Prefer parser (a bad value is a 400 naming the header)', async () => {
    const app = await testApp();
    const res = await call(app, '/packages', { headers: { prefer: 'code=429, retry-after=soon' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('header "prefer"');
    expect(res.body.error).toContain('retry-after');
  });

  it('checks a status with one range for Prefer and for the admin endpoint', async () => {
    const app = await testApp({ adminToken: 'qa' });
    const prefer = await call(app, '/packages', { headers: { prefer: 'code=600' } });
    const armed = await call(app, '/__mock/scenarios', {
      key: null,
      headers: { 'x-mock-admin-token': 'qa' },
      body: { status: 600 },
    });
    expect(prefer.status).toBe(400);
    expect(armed.status).toBe(400);
    expect(prefer.body.error).toContain('from 100 to 599');
    expect(armed.body.error).toContain('from 100 to 599');
  });
});

describe('QA controls act only after authentication', () => {
  it('answers a keyless or bad-key request with its 401 first, however it asks', async () => {
    const app = await testApp();
    const forced = await call(app, '/packages', { key: null, headers: { prefer: 'code=500' } });
    expect(forced.status).toBe(401);
    const limited = await call(app, '/packages', {
      key: 'not-a-key',
      headers: { prefer: 'code=429, retry-after=99999' },
    });
    expect(limited.status).toBe(401);
    expect(limited.headers.get('retry-after')).toBeNull();
    const started = performance.now();
    expect(
      (await call(app, '/packages', { key: null, headers: { prefer: 'delay=3000' } })).status,
    ).toBe(401);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(
      (await call(app, '/packages', { key: null, headers: { prefer: 'code=abc' } })).status,
    ).toBe(401);
  });

  it('with a valid key, Prefer: code=401 forces the documented 401', async () => {
    const app = await testApp();
    const res = await call(app, '/packages', {
      key: DEMO.production,
      headers: { prefer: 'code=401' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: expect.stringContaining('forced'), code: 401 });
  });
});

describe('one maximum duration for every QA delay and dribble', () => {
  it('speeds a dribble up so the body ends within the maximum, whole', async () => {
    const app = await testApp({ maxQaDurationMs: 1000 });
    const normal = await call(app, '/products?limit=100');
    const started = performance.now();
    const slow = await call(app, '/products?limit=100', { headers: { prefer: 'slow=1' } });
    // Unbounded, one byte per 50 ms tick would take about 25 minutes.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(slow.text).toBe(normal.text);
  });

  it('cuts delays that add up beyond the maximum (armed delay plus global latency)', async () => {
    const app = await testApp({
      maxQaDurationMs: 300,
      faults: { seed: 1, latency: parseLatency('1500') },
    });
    memoryParts(app).faults.arm({}, 1, { delayMs: 1500 });
    const started = performance.now();
    expect((await call(app, '/packages?limit=1')).status).toBe(200);
    // Unbounded: 3 s.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('bounds an armed slowBytesPerTick the same way', async () => {
    const app = await testApp({ maxQaDurationMs: 800 });
    memoryParts(app).faults.arm({}, 1, { slowBytesPerTick: 1, delayMs: 300 });
    const started = performance.now();
    const res = await call(app, '/products?limit=50');
    expect(res.status).toBe(200);
    // Unbounded: about 12 minutes.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
