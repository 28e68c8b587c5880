/**
 * @module server/listen.test
 * The mock listens before its app is built (to know its own origin): a request in between is told
 * to come back, in the API's error shape, never left hanging or handed a bare text.
 */
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { startMockServer, type RunningServer } from './listen.js';

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

describe('absolute hrefs on a socket', () => {
  /** The first absolute href of a boards-and-kits page, asked on 127.0.0.1 with a Host header of the caller's choosing. */
  async function firstHref(port: number, host?: string): Promise<string> {
    const body = await new Promise<string>((resolve, reject) => {
      const headers = { 'x-api-key': 'demo-production-key', ...(host ? { host } : {}) };
      const req = request(
        { host: '127.0.0.1', port, path: '/web-data/v1/boards-kits?limit=3', headers },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end();
    });
    const href = /"href":"(http[^"]*)"/.exec(body)?.[1];
    return href ?? `no absolute href in: ${body.slice(0, 200)}`;
  }
  const portOf = (server: RunningServer) => (server.server.address() as AddressInfo).port;

  it('name the origin the request came to', async () => {
    const server = await startMockServer();
    try {
      const port = portOf(server);
      expect(await firstHref(port)).toMatch(`http://127.0.0.1:${port}/web-data/v1/`);
      expect(await firstHref(port, `localhost:${port}`)).toMatch(
        `http://localhost:${port}/web-data/v1/`,
      );
      // A Host that is not a host and port keeps the built origin; nothing of it reaches a body.
      for (const hostile of ['evil"x:1', 'a b', `${'a'.repeat(300)}:1`, 'x/y'])
        expect(await firstHref(port, hostile)).not.toContain(hostile.slice(0, 5));
      // The cached bytes keep the built origin: the next client is not served another's Host.
      expect(await firstHref(port)).toMatch(`http://127.0.0.1:${port}/`);
    } finally {
      await server.close();
    }
  });

  it('name the public origin when one is given, whatever the Host', async () => {
    const server = await startMockServer({ origin: 'https://mock.example.test' });
    try {
      expect(await firstHref(portOf(server), 'localhost:1')).toMatch(
        /^https:\/\/mock\.example\.test\/web-data\/v1\//,
      );
    } finally {
      await server.close();
    }
  });
});
