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
  usage,
} from '../testing/http.js';
import { ManualSleep } from '../state/clock/clock.js';

const start = mockServers();

describe('1. a concurrency slot is given back exactly once', () => {
  /**
   * Two requests at once, each held by a QA delay the test then ends: both get their 200 when both
   * slots are free (a 429 answers at once, and shows in the statuses).
   */
  const parallelPair = async (server: RunningServer, timers: ManualSleep) => {
    let answered = 0;
    const pair = Promise.all(
      [1, 2].map(() =>
        fetch(`${server.url}/packages?limit=1`, {
          headers: { 'x-api-key': DEMO.production, prefer: 'delay=300' },
        }).finally(() => (answered += 1)),
      ),
    );
    await eventually(() => timers.waiting + answered === 2);
    timers.advance(300);
    return (await pair).map((r) => r.status);
  };
  /** The journal's statuses, newest first, once it holds `count` requests. */
  const journaled = async (server: RunningServer, count: number) => {
    await eventually(() => memoryParts(server.app).journal.last().length >= count);
    return memoryParts(server.app)
      .journal.last()
      .map((e) => e.status);
  };

  it('when a pipelining client closes during the first request`s delay', async () => {
    const timers = new ManualSleep();
    const server = await start({
      tierOverride: { concurrentConnections: 2 },
      sleep: timers.sleep,
    });
    const client = rawConnection(server);
    const headers = { 'x-api-key': DEMO.production };
    client.socket.write(
      requestText(server, 'GET', api('/packages?limit=1'), { ...headers, prefer: 'delay=1000' }) +
        requestText(server, 'GET', api('/packages?limit=2'), headers),
    );
    await eventually(() => timers.waiting === 1);
    expect(usage(server).inFlight).toBe(1);
    client.socket.destroy();
    // The server has seen the close: the slot is free while the delay still runs.
    await eventually(() => usage(server).inFlight === 0);
    // The delay runs its course; the one queued behind it is answered (journaled) without being admitted.
    timers.advance(1000);
    expect(await journaled(server, 2)).toContain(499);
    expect(usage(server).inFlight).toBe(0);
    expect(usage(server).minute).toBe(1);
    expect(await parallelPair(server, timers)).toEqual([200, 200]);
  });

  it('when a pipelining client closes during a dribbled body, or during an armed delay', async () => {
    const timers = new ManualSleep();
    const server = await start({
      tierOverride: { concurrentConnections: 2 },
      sleep: timers.sleep,
    });
    const headers = { 'x-api-key': DEMO.production };
    const slow = rawConnection(server);
    slow.socket.write(
      requestText(server, 'GET', api('/products?limit=100'), { ...headers, prefer: 'slow=16' }) +
        requestText(server, 'GET', api('/packages?limit=2'), headers),
    );
    await eventually(() => slow.statuses().length === 1);
    slow.socket.destroy();
    await eventually(() => usage(server).inFlight === 0);
    // The dribble's tick the socket's close interrupted ends; the pipelined request was never admitted.
    timers.advance(1000);
    expect(await journaled(server, 2)).toHaveLength(2);

    expect(
      (await admin(server, '/scenarios', { method: 'POST', body: '{"delayMs":800}' })).status,
    ).toBe(201);
    const armed = rawConnection(server);
    armed.socket.write(
      requestText(server, 'GET', api('/packages?limit=1'), headers) +
        requestText(server, 'GET', api('/packages?limit=2'), headers),
    );
    await eventually(() => timers.waiting === 1);
    expect(usage(server).inFlight).toBe(1);
    armed.socket.destroy();
    await eventually(() => usage(server).inFlight === 0);
    timers.advance(800);
    expect(await journaled(server, 4)).toHaveLength(4);
    expect(usage(server).inFlight).toBe(0);
    expect(await parallelPair(server, timers)).toEqual([200, 200]);
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
