/**
 * @module admin/admin-bounds.test
 * Issue 24, items 9 and 11: the admin API stops reading a body at its limit (declared or
 * chunked), and the QA clock cannot be moved beyond its bound.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CLOCK_OFFSET_SECONDS } from '../../state/clock/clock.js';
import { MAX_ADMIN_BODY_BYTES } from './admin.js';
import { DEMO } from '../../testing/mock-app.js';
import {
  admin,
  ADMIN_TOKEN,
  eventually,
  mockServers,
  rawConnection,
  requestText,
} from '../../testing/http.js';

const start = mockServers();

/** A raw connection that has sent the head of an admin POST with these extra headers. */
async function adminUpload(headers: Record<string, string>) {
  const server = await start();
  const client = rawConnection(server);
  client.socket.write(
    requestText(server, 'POST', '/__mock/scenarios', {
      'x-mock-admin-token': ADMIN_TOKEN,
      'content-type': 'application/json',
      ...headers,
    }),
  );
  return client;
}

describe('9. the admin API stops reading a body at its 64 KiB limit', () => {
  it('answers 413 before a huge declared body has arrived', async () => {
    const client = await adminUpload({ 'content-length': String(300 * 1024 * 1024) });
    client.socket.write('{"delayMs":'.padEnd(256 * 1024, ' '));
    await eventually(() => client.statuses().length === 1, 3000);
    expect(client.statuses()).toEqual([413]);
    client.socket.destroy();
  });

  it('answers 413 to a chunked body as soon as it passes the limit', async () => {
    const client = await adminUpload({ 'transfer-encoding': 'chunked' });
    const chunk = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 8; i++) client.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    // The body never ends: only the limit can answer it.
    await eventually(() => client.statuses().length === 1, 3000);
    expect(client.statuses()).toEqual([413]);
    expect(client.received()).toContain(`${MAX_ADMIN_BODY_BYTES} bytes`);
    client.socket.destroy();
  });
});

describe('11. the QA clock has a bound', () => {
  it('refuses to advance beyond it with a 400 naming the field and the bound; the journal still reads', async () => {
    const server = await start();
    const year = 366 * 24 * 3600;
    let refused: Response | undefined;
    for (let i = 0; i < 1000 && !refused; i++) {
      const res = await admin(server, '/clock/advance', {
        method: 'POST',
        body: JSON.stringify({ seconds: year }),
      });
      if (res.status !== 200) refused = res;
    }
    expect(refused?.status).toBe(400);
    const text = await refused!.text();
    expect(text).toContain('seconds');
    expect(text).toContain(String(MAX_CLOCK_OFFSET_SECONDS));
    expect(server.app.state.clock.offsetMs).toBeLessThanOrEqual(MAX_CLOCK_OFFSET_SECONDS * 1000);
    await fetch(`${server.url}/packages?limit=1`, { headers: { 'x-api-key': DEMO.production } });
    expect((await admin(server, '/requests')).status).toBe(200);
    expect((await admin(server, '/config')).status).toBe(200);
  });
});
