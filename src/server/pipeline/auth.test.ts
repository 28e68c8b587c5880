/**
 * @module pipeline/auth.test
 * Over one keep-alive connection, the key of each request is judged on its own: the memo of the
 * connection's last key never lets a different key (one character off, same length, or another
 * valid key) through on the strength of the one before.
 */
import { request, Agent } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../listen.js';
import { DEMO } from '../../testing/mock-app.js';

const server = await startMockServer({ validateResponses: true });
afterAll(() => server.close());

/** One GET on the shared connection: status, and whether the socket was the one before. */
function get(
  agent: Agent,
  path: string,
  key: string,
): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { agent, headers: { 'x-api-key': key } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('auth on a keep-alive connection', () => {
  it('judges every request by its own key', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const oneOff = `${DEMO.production.slice(0, -1)}${DEMO.production.endsWith('y') ? 'z' : 'y'}`;
    const sequence: [string, number][] = [
      [DEMO.production, 200],
      [oneOff, 401],
      [DEMO.production, 200],
      [DEMO.production, 200],
      [DEMO.expired, 401],
      [DEMO.noDocuments, 200],
      [DEMO.production, 200],
      ['', 401],
      [DEMO.staging, 401],
    ];
    const seen: { status: number; reused: boolean }[] = [];
    for (const [key, _] of sequence) seen.push(await get(agent, '/packages?limit=1', key));
    agent.destroy();
    expect(seen.map((s) => s.status)).toEqual(sequence.map(([, status]) => status));
    // All but the first went over the first request's connection (else this test proves nothing).
    expect(seen.slice(1).every((s) => s.reused)).toBe(true);
  });

  it('applies the scope of the key presented, not of the one before', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const statuses: number[] = [];
    for (const key of [DEMO.production, DEMO.noDocuments, DEMO.production, DEMO.noDocuments])
      statuses.push((await get(agent, '/documents?limit=1', key)).status);
    agent.destroy();
    expect(statuses).toEqual([200, 403, 200, 403]);
  });
});
