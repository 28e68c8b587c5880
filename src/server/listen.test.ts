/**
 * @module server/listen.test
 * The mock listens before its app is built (to know its own origin): a request in between is told
 * to come back, in the API's error shape, never left hanging or handed a bare text.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startMockServer } from './listen.js';

describe('startMockServer', () => {
  it('answers 503 {error} with Retry-After while it builds, then serves', async () => {
    let port = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const starting = startMockServer({
      scale: 0.1,
      // Holds the start between listening and serving, and lets the test learn the port.
      extend: async (app) => {
        port = Number(new URL(app.state.options.origin).port);
        await held;
      },
    });
    while (port === 0) await sleep(10);
    const early = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(early.status).toBe(503);
    expect(early.headers.get('retry-after')).toBe('1');
    expect(await early.json()).toEqual({ error: expect.stringMatching(/starting/) });
    release();
    const running = await starting;
    try {
      expect((await fetch(`${running.origin}/healthz`)).status).toBe(200);
    } finally {
      await running.close();
    }
  });
});
