/**
 * @module meta/bounds.test
 * The suite as a client of a hostile or broken server, over real HTTP: a body over the size bound
 * (announced or streamed without end), a body that dribbles, JSON nested a million levels deep.
 * Each ends its check with one finding naming the URL, never a bare TimeoutError or RangeError, and
 * the body is never held whole.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { createContext, runToEnd, type Check } from '../../src/suite/support/context.js';
import { DEFAULTS, readOptions } from '../../src/suite/support/options.js';
import { Probe } from '../../src/suite/support/probe.js';

const MAX_BODY = 64 * 1024;
const TIMEOUT_MS = 400;
const DRIBBLE_EVERY_MS = 50;

let server: Server;
let base: string;
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    res.setHeader('content-type', 'application/json');
    if (path.endsWith('/announced')) {
      res.setHeader('content-length', String(50 * MAX_BODY));
      res.write('[');
      return; // never sends the rest: the client must not wait for it
    }
    if (path.endsWith('/endless')) {
      const chunk = `"${'x'.repeat(1022)}",`;
      res.write('[');
      const timer = setInterval(() => res.write(chunk.repeat(16)), 1);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (path.endsWith('/dribble')) {
      res.write('{"data": [');
      const timer = setInterval(() => res.write(' '), DRIBBLE_EVERY_MS);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (path.endsWith('/deep')) {
      res.end(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
      return;
    }
    res.statusCode = 404;
    res.end('{"error":"no"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/web-data/v1`;
});

afterAll(async () => {
  for (const t of timers) clearInterval(t);
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

/** A check that asks one URL of the test server twice: the second request must never be sent. */
function askTwice(path: string): Check {
  return async (ctx) => {
    const probe = new Probe(ctx);
    const op = ctx.contract.operations.find((o) => o.method === 'get')!;
    await probe.call(op, { url: `${base}${path}`, expectStatus: [200] });
    await probe.call(op, { url: `${base}${path}`, expectStatus: [200] });
    return probe.result();
  };
}

async function runAgainst(path: string, maxBody: number) {
  const contract = await loadContract({ release: 'unreleased' });
  const ctx = await createContext(
    {
      ...readOptions({
        CONTRACT_MAX_BODY_BYTES: String(maxBody),
        CONTRACT_TIMEOUT_MS: String(TIMEOUT_MS),
      }),
      baseUrl: base,
    },
    { contract },
  );
  const findings = await runToEnd(askTwice(path), ctx);
  return { findings, sent: ctx.client.sent };
}

describe('the suite against a server that does not play fair', () => {
  it.each([
    [
      '/announced',
      MAX_BODY,
      /body of 3276800 bytes \(content-length\) exceeds CONTRACT_MAX_BODY_BYTES=65536/,
    ],
    [
      '/endless',
      MAX_BODY,
      /body exceeds CONTRACT_MAX_BODY_BYTES=65536 \(more than \d+ bytes read, reading stopped\)/,
    ],
    ['/dribble', MAX_BODY, /body not complete within 400 ms \(CONTRACT_TIMEOUT_MS\)/],
    // A million levels is 2 MB: within the default body bound, so the depth bound is what stops it.
    ['/deep', DEFAULTS.maxBodyBytes, /JSON nested deeper than 64 levels/],
  ])('%s ends the check with one finding naming the URL', async (path, maxBody, message) => {
    const { findings, sent } = await runAgainst(path, maxBody);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: 'failure', rule: 'target' });
    expect(findings[0].message).toContain(`${base}${path}`);
    expect(findings[0].message).toMatch(message);
    expect(findings[0].message).not.toMatch(/^(TimeoutError|RangeError|AbortError)/);
    expect(sent).toBe(1);
  });
});
