/**
 * @module net/listen.test
 * The shared listen/close helper on real sockets: a request in flight finishes within the grace;
 * a connection that never sent a request, or sits idle after one, is closed at once (the grace
 * here is ten minutes: only the test timeout bounds `close()`, so a helper that waited for it fails).
 */
import { connect } from 'node:net';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listen } from './listen.js';

const TEN_MINUTES = 600_000;

describe('listen / close', () => {
  it('closes silent and idle connections at once and lets a request in flight finish', async () => {
    let finish: () => void = () => {};
    let arrived: () => void = () => {};
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const server = await listen(
      () => {
        arrived();
        return new Promise<Response>((resolve) => (finish = () => resolve(new Response('done'))));
      },
      { port: 0, host: '127.0.0.1', graceMs: TEN_MINUTES },
    );
    const { port } = new URL(server.origin);
    const silent = connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => silent.once('connect', resolve));
    const silentClosed = new Promise((resolve) => silent.once('close', resolve));
    const slow = new Promise<string>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/slow' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(body));
      })
        .on('error', reject)
        .end();
    });
    await reached;
    const closed = server.close();
    await silentClosed;
    finish();
    expect(await slow).toBe('done');
    await closed;
  });
});
