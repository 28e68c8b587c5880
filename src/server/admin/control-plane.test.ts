/**
 * The control plane against a page on the web (issue 36, "A control plane any web page can
 * reach"), on real sockets: a DNS-rebinding Host is refused on `/__mock/*` whatever the token
 * (403 naming the rule, the Host escaped), loopback names and `--admin-host` names are answered,
 * failed admin attempts are throttled per client (429 with Retry-After, the right token too while
 * it lasts), and the command refuses a weak or documented token on a bind other machines reach
 * (exit 2, one line saying why) while the README's loopback example still starts, its banner
 * naming the address actually bound.
 */
import { connect } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../cli/cli.js';
import { startMockServer, type RunningServer } from '../listen.js';
import { exitCodeFor } from '../../usage.js';
import { MAX_FAILURES } from './admin-guard.js';

const TOKEN = 'qa-token';
const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.close()));
});

async function mock(adminHosts: string[] = []): Promise<RunningServer> {
  const server = await startMockServer({ adminToken: TOKEN, adminHosts });
  running.push(server);
  return server;
}

/** One request with the Host given as raw bytes (latin1), its status and body. */
function withHost(
  server: RunningServer,
  host: string,
  token = TOKEN,
): Promise<{ status: number; text: string }> {
  const url = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head, ...body] = received.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), text: body.join('') });
    });
    socket.write(
      Buffer.from(
        `GET /__mock/config HTTP/1.1\r\nhost: ${host}\r\nx-mock-admin-token: ${token}\r\nconnection: close\r\n\r\n`,
        'latin1',
      ),
    );
  });
}

describe('the Host allow-list on /__mock/*', () => {
  it('refuses a DNS-rebinding Host with the right token: 403 naming the rule, the Host escaped', async () => {
    const server = await mock();
    const evil = await withHost(server, 'evil.example');
    expect(evil.status).toBe(403);
    expect(evil.text).toContain('--admin-host');
    expect(evil.text).toContain('DNS rebinding');
    expect(evil.text).toContain('Host \\"evil.example\\"');
  });

  it('answers loopback names with any port, the mock own address, and --admin-host names', async () => {
    const server = await mock(['qa.example.test']);
    const port = new URL(server.origin).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, '[::1]:9', 'QA.example.test.'])
      expect((await withHost(server, host)).status, host).toBe(200);
    expect((await withHost(server, 'other.example.test')).status).toBe(403);
  });
});

describe('failed admin attempts', () => {
  it(`are throttled per client: after ${MAX_FAILURES} wrong tokens a minute, 429 with Retry-After, the right token too`, async () => {
    const server = await mock();
    const host = new URL(server.origin).host;
    for (let i = 0; i < MAX_FAILURES; i += 1)
      expect((await withHost(server, host, `wrong-${i}`)).status).toBe(401);
    const refused = await fetch(`${server.origin}/__mock/config`, {
      headers: { 'x-mock-admin-token': TOKEN },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /too many wrong admin tokens/,
    );
  });
});

describe('the command on a bind other machines reach', () => {
  const start = async (argv: string[]) => {
    const server = (await main([...argv, '--port', '0'], {}))!;
    running.push(server);
    return server;
  };

  it('exits 2 with a line saying why for a short or documented admin token', async () => {
    for (const [token, why] of [
      ['a', /has 1 characters/],
      ['qa-token', /one our docs show/],
      ['change-me', /one our docs show/],
    ] as const) {
      const error = await main(
        ['--host', '0.0.0.0', '--admin-token', token, '--port', '0'],
        {},
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(exitCodeFor(error)).toBe(2);
      expect((error as Error).message).toMatch(why);
      expect((error as Error).message).toContain('--host 0.0.0.0');
    }
  });

  it('starts the README example on loopback, and prints the address actually bound', async () => {
    const out: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    try {
      await start(['--admin-token', 'qa-token']);
      await start(['--host', '0.0.0.0', '--admin-token', '0123456789abcdef-ok']);
    } finally {
      write.mockRestore();
    }
    const banners = out.join('');
    expect(banners).toMatch(/bound {6}127\.0\.0\.1:\d+ \(loopback only\)/);
    expect(banners).toMatch(/bound {6}0\.0\.0\.0:\d+ \(every interface/);
  });
});
