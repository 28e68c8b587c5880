/**
 * @module cli.test
 * The mock's command line where a container needs it: `--public-url` (or MOCK_PUBLIC_URL) makes
 * the absolute hrefs name the address other containers reach the mock by, while it listens
 * elsewhere; a value that is not a bare http(s) origin is a usage error naming the flag.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';
import type { RunningServer } from './server/listen.js';

const running: RunningServer[] = [];
afterAll(() => Promise.all(running.map((r) => r.close())));

async function firstHref(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const server = (await main([...argv, '--port', '0', '--host', '127.0.0.1'], env))!;
  running.push(server);
  // Listening on a loopback port, named by the public origin in what it serves.
  const listening = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
  const res = await fetch(`${listening}/web-data/v1/packages?limit=1`, {
    headers: { 'x-api-key': 'demo-production-key' },
  });
  expect(res.status).toBe(200);
  const text = await res.text();
  return /"href":\s*"([^"]+)"/.exec(text)![1];
}

describe('--public-url', () => {
  it('absolute hrefs name the public origin, from the flag or MOCK_PUBLIC_URL', async () => {
    expect(await firstHref(['--public-url', 'http://web-data-mock:4010'])).toMatch(
      /^http:\/\/web-data-mock:4010\/web-data\/v1\//,
    );
    expect(await firstHref([], { MOCK_PUBLIC_URL: 'https://mock.example.test/' })).toMatch(
      /^https:\/\/mock\.example\.test\/web-data\/v1\//,
    );
  });

  it('refuses anything but a bare http(s) origin, naming the flag', async () => {
    for (const bad of ['web-data-mock:4010', 'ftp://x', 'http://x:4010/web-data/v1', 'http://']) {
      await expect(main(['--public-url', bad, '--port', '0'], {})).rejects.toThrow(
        /--public-url must be an http\(s\) origin/,
      );
    }
  });
});
