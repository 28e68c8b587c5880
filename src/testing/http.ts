/**
 * @module testing/http
 * Helpers for tests that talk to a listening mock the way a careless or hostile client would: a
 * raw connection that writes exactly what it is told (pipelined requests, half a body, a close at
 * any moment), polling until the server has seen a close, the admin API with a known token.
 */
import { connect, type Socket } from 'node:net';
import { afterAll } from 'vitest';
import { startMockServer, type RunningServer } from '../server/listen.js';
import { sharedDataset, memoryParts } from './mock-app.js';

export const ADMIN_TOKEN = 'test-admin-token';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (a socket's close reaches the server a moment after the client's). */
export async function eventually(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > until) throw new Error('condition not reached in time');
    await sleep(10);
  }
}

/** A key's counters as the rate limiter holds them. */
export const usage = (server: RunningServer, key = 'demo-production') =>
  memoryParts(server.app).limiter.snapshot()[key];

/** A raw connection: writes what it is told, keeps everything it receives. */
export function rawConnection(server: RunningServer) {
  const url = new URL(server.origin);
  const socket: Socket = connect(Number(url.port), url.hostname);
  let received = '';
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => {});
  socket.on('close', () => (closed = true));
  return {
    socket,
    received: () => received,
    closed: () => closed,
    /** Status lines received so far, in order (a body ends without a line break before the next). */
    statuses: () => [...received.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((m) => Number(m[1])),
  };
}

/** One HTTP/1.1 request as text (headers as given, plus `host`), for a raw connection to write. */
export function requestText(
  server: RunningServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body = '',
): string {
  const host = new URL(server.origin).host;
  const lines = Object.entries({ host, ...headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return `${method} ${path} HTTP/1.1\r\n${lines}\r\n${body}`;
}

/** A path of the production API. */
export const api = (path: string) => `/web-data/v1${path}`;

/** A call to `/__mock/*` with the admin token and a JSON content type. */
export const admin = (server: RunningServer, path: string, init: RequestInit = {}) =>
  fetch(`${server.origin}/__mock${path}`, {
    ...init,
    headers: {
      'x-mock-admin-token': ADMIN_TOKEN,
      'content-type': 'application/json',
      ...init.headers,
    },
  });

/**
 * A `start` for one test file: a mock on a free port over the shared dataset, with the admin
 * token, closed once the file's tests are done.
 */
export function mockServers() {
  const running: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(running.map((r) => r.close()));
  });
  return async function start(
    options: Parameters<typeof startMockServer>[0] = {},
  ): Promise<RunningServer> {
    const server = await startMockServer({
      datasets: { production: sharedDataset() },
      adminToken: ADMIN_TOKEN,
      ...options,
    });
    running.push(server);
    return server;
  };
}
