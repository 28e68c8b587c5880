/**
 * @module support/preflight.test
 * The preflight against a target that takes the connection and never answers: the run is refused
 * with the deadline named (`CONTRACT_TIMEOUT_MS`), once the deadline passes, not after a hang.
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../../contract/index.js';
import { refusalOf } from './preflight.js';

const held: Socket[] = [];
const silent = createServer((socket) => held.push(socket));
let baseUrl = '';
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = silent.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}/web-data/v1`;
});

afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

describe('the preflight', () => {
  it('refuses a target that never answers, naming the deadline', async () => {
    const why = await refusalOf({ baseUrl, apiKey: 'k', timeoutMs: 200 }, contract);
    expect(why).toBe(
      `target ${baseUrl} is not reachable: no answer within 200 ms (CONTRACT_TIMEOUT_MS); nothing was tested`,
    );
  });
});
