/**
 * @module testing/free-port
 * A loopback port free now, for a server a test starts as a separate process (redis-server, a
 * recipe's `web-data-mock --port`), where listening on port 0 cannot tell the test the port.
 */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
