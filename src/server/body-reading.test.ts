/**
 * @module server/body-reading.test
 * Issue 24, item 10 and the smaller things about request input: an upload the client abandons
 * is logged as a client that left (499, no stack trace); a body that does not arrive in time is
 * cut with a 400 and its slot freed; invalid UTF-8 in a JSON body and non-decimal `Prefer: code`
 * values are 400s.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from './listen.js';
import { DEMO, testApp, memoryParts } from '../testing/mock-app.js';
import {
  api,
  eventually,
  mockServers,
  rawConnection,
  requestText,
  usage,
} from '../testing/http.js';

const start = mockServers();

/** A raw connection that has sent 2 of the 100 body bytes it announced, and then nothing. */
function halfAnUpload(server: RunningServer) {
  const client = rawConnection(server);
  client.socket.write(
    requestText(
      server,
      'POST',
      api('/product-parts/cross-reference'),
      {
        'x-api-key': DEMO.production,
        'content-type': 'application/json',
        'content-length': '100',
      },
      '{"',
    ),
  );
  return client;
}
afterEach(() => {
  vi.restoreAllMocks();
});

describe('10. an aborted upload is a client that left, not a server error', () => {
  it('logs 499 with no stack trace', async () => {
    const errors = vi.spyOn(console, 'error');
    const server = await start();
    const client = halfAnUpload(server);
    await eventually(() => usage(server)?.inFlight === 1);
    client.socket.destroy();
    await eventually(() => memoryParts(server.app).journal.last(1).length === 1);
    const [entry] = memoryParts(server.app).journal.last(1);
    expect(entry.status).toBe(499);
    expect(errors).not.toHaveBeenCalled();
    await eventually(() => usage(server).inFlight === 0);
  });
});

describe('smaller things', () => {
  it('Prefer: code takes decimal digits only (0x1F4 and 5e2 are 400s)', async () => {
    const server = await start();
    for (const code of ['0x1F4', '5e2', '500.0', '+500']) {
      const res = await fetch(`${server.url}/packages?limit=1`, {
        headers: { 'x-api-key': DEMO.production, prefer: `code=${code}` },
      });
      expect(res.status, code).toBe(400);
      expect(await res.text()).toContain('prefer');
    }
  });

  it('a JSON body with invalid UTF-8 is a 400 naming the byte position', async () => {
    const server = await start();
    const body = Buffer.concat([
      Buffer.from('{"partNumbers":["LM'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('358"]}'),
    ]);
    const res = await fetch(`${server.url}/product-parts/cross-reference`, {
      method: 'POST',
      headers: { 'x-api-key': DEMO.production, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/UTF-8.*byte 19/);
  });

  it('in process too, and a body that ends inside a character is named where it ends', async () => {
    const app = await testApp();
    const prefix = Buffer.from('{"partNumbers":["LM358"]}');
    for (const [tail, at] of [
      [Buffer.from([0x80]), prefix.length],
      [Buffer.from([0xe2, 0x82]), prefix.length + 2],
    ] as const) {
      const res = await app.request('http://mock.test/web-data/v1/product-parts/cross-reference', {
        method: 'POST',
        headers: { 'x-api-key': DEMO.production, 'content-type': 'application/json' },
        body: Buffer.concat([prefix, tail]),
      });
      const text = await res.text();
      expect(res.status, text).toBe(400);
      expect(text).toContain(`not valid UTF-8 at byte ${at}`);
    }
  });

  it('a body that does not arrive within the body time bound is cut and its slot freed', async () => {
    const server = await start({ bodyTimeoutMs: 500 });
    const client = halfAnUpload(server);
    await eventually(() => client.statuses().length === 1, 3000);
    expect(client.statuses()).toEqual([400]);
    expect(client.received()).toContain('0.5 s');
    await eventually(() => usage(server).inFlight === 0);
    await eventually(() => client.closed());
  });
});
