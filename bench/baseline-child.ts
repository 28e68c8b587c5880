/**
 * @module bench/baseline-child
 * The yardstick: a bare `node:http` server that answers every request with the very bytes and
 * headers the mock sent for the scenario (captured by the orchestrator and handed over by IPC).
 * It reads request bodies to the end, as the mock must, so POST scenarios compare like with like.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveParent, type CapturedResponse } from './ipc.js';

let current: { status: number; headers: Record<string, string>; body: Buffer } = { status: 503, headers: { 'content-length': '0' }, body: Buffer.alloc(0) };

const send = serveParent((message) => {
  if (message.type !== 'serve') return;
  const response: CapturedResponse = message.response;
  current = { status: response.status, headers: response.headers, body: Buffer.from(response.bodyBase64, 'base64') };
  send({ type: 'serving' });
});

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const { status, headers, body } = current;
    res.writeHead(status, headers);
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  send({ type: 'ready', url: `http://127.0.0.1:${port}`, info: {} });
});
// Nothing to flush: the orchestrator stops us between runs only.
process.on('SIGTERM', () => process.exit(0));
