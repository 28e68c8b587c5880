// @ts-check
/**
 * @module bench/bare-server
 * The yardstick for cold starts: a bare `node:http` server spawned the way the mock's command is
 * (`node <script> --port 0`), printing a banner line with its URL as the mock does, and answering
 * every request 200 with a small JSON body. Plain JavaScript, so nothing but Node starts.
 */
import { createServer } from 'node:http';

const BODY = '{"data":[]}';
const server = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length });
  response.end(BODY);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  process.stdout.write(`bare node:http at http://127.0.0.1:${port}/web-data/v1\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
