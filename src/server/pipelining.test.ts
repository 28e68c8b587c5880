/**
 * @module server/pipelining.test
 * Issue 24, item 1, over raw sockets: a request's concurrency slot is given back exactly once,
 * whichever of response end, connection close or abort comes first, also for requests pipelined
 * behind a delayed or dribbled one; a pipelined connection counts as one connection.
 */
import { describe, expect, it } from 'vitest';
import type { RunningServer } from './listen.js';
import { DEMO, memoryParts } from '../testing/mock-app.js';
import {
  admin,
  api,
  eventually,
  mockServers,
  rawConnection,
  requestText,
  sleep,
  usage,
} from '../testing/http.js';

const start = mockServers();

describe('1. a concurrency slot is given back exactly once', () => {
  const parallelPair = async (server: RunningServer) =>
    (
      await Promise.all(
        [1, 2].map(() =>
          fetch(`${server.url}/packages?limit=1`, {
            headers: { 'x-api-key': DEMO.production, prefer: 'delay=300' },
          }),
        ),
      )
    ).map((r) => r.status);

  it('when a pipelining client closes during the first request`s delay', async () => {
    const server = await start({ tierOverride: { concurrentConnections: 2 } });
    const client = rawConnection(server);
    const headers = { 'x-api-key': DEMO.production };
    client.socket.write(
      requestText(server, 'GET', api('/packages?limit=1'), { ...headers, prefer: 'delay=1000' }) +
        requestText(server, 'GET', api('/packages?limit=2'), headers),
    );
    await eventually(() => usage(server)?.inFlight >= 1);
    await sleep(100);
    client.socket.destroy();
    await sleep(1500);
    expect(usage(server).inFlight).toBe(0);
    // The delayed request ran its course; the one queued behind it was never admitted.
    expect(usage(server).minute).toBe(1);
    expect(
      memoryParts(server.app)
        .journal.last(2)
        .map((e) => e.status),
    ).toContain(499);
    expect(await parallelPair(server)).toEqual([200, 200]);
  });

  it('when a pipelining client closes during a dribbled body, or during an armed delay', async () => {
    const server = await start({ tierOverride: { concurrentConnections: 2 } });
    const headers = { 'x-api-key': DEMO.production };
    const slow = rawConnection(server);
    slow.socket.write(
      requestText(server, 'GET', api('/products?limit=100'), { ...headers, prefer: 'slow=16' }) +
        requestText(server, 'GET', api('/packages?limit=2'), headers),
    );
    await eventually(() => slow.statuses().length === 1);
    slow.socket.destroy();
    await eventually(() => usage(server).inFlight === 0);

    expect(
      (await admin(server, '/scenarios', { method: 'POST', body: '{"delayMs":800}' })).status,
    ).toBe(201);
    const armed = rawConnection(server);
    armed.socket.write(
      requestText(server, 'GET', api('/packages?limit=1'), headers) +
        requestText(server, 'GET', api('/packages?limit=2'), headers),
    );
    await eventually(() => usage(server)?.inFlight >= 1);
    armed.socket.destroy();
    await sleep(1200);
    expect(usage(server).inFlight).toBe(0);
    expect(await parallelPair(server)).toEqual([200, 200]);
  });

  it('a pipelined connection counts as one connection: 30 requests on it are all answered, in order', async () => {
    const server = await start({ tierOverride: { concurrentConnections: 2 } });
    const client = rawConnection(server);
    const text = Array.from({ length: 30 }, (_, i) =>
      requestText(server, 'GET', api(`/packages?limit=${(i % 5) + 1}`), {
        'x-api-key': DEMO.production,
      }),
    ).join('');
    client.socket.write(text);
    await eventually(() => client.statuses().length === 30, 10_000);
    expect(client.statuses()).toEqual(Array(30).fill(200));
    const remaining = [...client.received().matchAll(/^x-ratelimit-remaining: (\d+)/gm)].map((m) =>
      Number(m[1]),
    );
    // In order, counted one by one against the minute's 600.
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => 599 - i));
    client.socket.destroy();
    await eventually(() => usage(server).inFlight === 0);
  });
});
