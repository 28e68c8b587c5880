/**
 * @module bench/baseline-child
 * The yardsticks: a server that answers every request with the very bytes and headers the mock
 * sent for the scenario (captured by the orchestrator and handed over by IPC), either bare
 * `node:http` (the baseline every ratio is against) or, with the argument `hono`, Hono on
 * `@hono/node-server` with one route and no middleware, answering the way the mock's handlers do
 * (a Response with a plain header object): the framework's own floor, which shows how
 * much of the mock's cost is the framework rather than the mock's work. Both read POST bodies to
 * the end, as the mock must, so POST scenarios compare like with like.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveParent, type CapturedResponse } from './ipc.js';

let current: { status: number; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> } = {
  status: 503,
  headers: { 'content-length': '0' },
  body: new Uint8Array(0),
};

const send = serveParent((message) => {
  if (message.type !== 'serve') return;
  const response: CapturedResponse = message.response;
  current = {
    status: response.status,
    headers: response.headers,
    body: new Uint8Array(Buffer.from(response.bodyBase64, 'base64')),
  };
  send({ type: 'serving' });
});

const ready = (port: number) => send({ type: 'ready', url: `http://127.0.0.1:${port}`, info: {} });

if (process.argv[2] === 'hono') {
  const app = new Hono();
  app.all('*', async (c) => {
    // Read a body only where one is sent, as the mock does: reading it on GET would build the whole web Request.
    if (c.req.method === 'POST') await c.req.arrayBuffer();
    const { status, headers, body } = current;
    // A Response with a plain header object, as the mock builds its own: Hono's `c.body()` with
    // more than one header builds a web Headers per response, which the mock no longer pays.
    return new Response(body, { status, headers });
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    ready(info.port),
  );
  void server;
} else {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { status, headers, body } = current;
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => ready((server.address() as AddressInfo).port));
}
// Nothing to flush: the orchestrator stops us between runs only.
process.on('SIGTERM', () => process.exit(0));
