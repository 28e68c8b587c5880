/**
 * @module cli.test
 * The mock's command line where a container needs it: `--public-url` (or MOCK_PUBLIC_URL) makes
 * the absolute hrefs name the address other containers reach the mock by, while it listens
 * elsewhere; a value that is not a bare http(s) origin is a usage error naming the flag. `--vary`
 * varies the answers and refuses a seed that is not a 32-bit unsigned integer.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './cli.js';
import type { RunningServer } from '../listen.js';
import { UsageError } from '../../usage.js';
import { quietly } from '../../testing/expected-output.js';

const running: RunningServer[] = [];
afterAll(() => Promise.all(running.map((r) => r.close())));

async function firstHref(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const server = (await quietly(() => main([...argv, '--port', '0', '--host', '127.0.0.1'], env)))!;
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

describe('numbers and QA specs on the command line', () => {
  const usage = async (argv: string[], env: NodeJS.ProcessEnv = {}): Promise<string> => {
    const error = await main([...argv, '--host', '127.0.0.1'], env).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  };

  it.each([
    [['--port', '0.5'], '--port must be an integer from 0 to 65535 (got "0.5")'],
    [['--port', '1e3'], '--port must be an integer from 0 to 65535 (got "1e3")'],
    [['--port', ''], '--port must be an integer from 0 to 65535 (got "")'],
    [['--port', '70000'], '--port must be an integer from 0 to 65535 (got "70000")'],
    [['--seed=-1'], '--seed must be an integer >= 0 (got "-1")'],
    [['--workers', '0'], '--workers must be an integer >= 1 (got "0")'],
    [['--fault-seed', '99999999999999999999'], '--fault-seed must be an integer >= 0'],
    [['--scale', '1e3'], '--scale must be a number > 0 or "live" (got "1e3")'],
    [['--latency', '5-2'], '--latency: 5-2 is not a range min-max'],
    [['--faults', 'delay=0.1:5-2'], '--faults delay: 5-2 is not a range min-max'],
    [['--faults', 'delay=2'], '--faults: delay rate must be between 0 and 1 (got "2")'],
    [['--journal-size', '0'], '--journal-size must be an integer from 1 to 100000 (got "0")'],
    [['--journal-size', '100001'], '--journal-size must be an integer from 1 to 100000'],
    [['--scope-ttl', '0'], '--scope-ttl must be an integer from 1 to 604800 (got "0")'],
    [['--max-scopes', '1.5'], '--max-scopes must be an integer from 1 to 10000 (got "1.5")'],
  ])('%j is a usage error naming the flag: %s', async (argv, message) => {
    expect(await usage(argv)).toContain(message);
  });

  it('names the variable when the value came from the environment', async () => {
    expect(await usage([], { PORT: 'abc' })).toBe(
      'PORT must be an integer from 0 to 65535 (got "abc")',
    );
    expect(await usage([], { MOCK_SEED: '1.5' })).toBe(
      'MOCK_SEED must be an integer >= 0 (got "1.5")',
    );
  });
});

describe('--journal-size', () => {
  it('keeps that many requests and names the ones it no longer keeps', async () => {
    const server = (await quietly(() =>
      main(
        ['--journal-size', '2', '--admin-token', 'qa', '--port', '0', '--host', '127.0.0.1'],
        {},
      ),
    ))!;
    running.push(server);
    for (let i = 0; i < 3; i += 1)
      await (
        await fetch(`${server.url}/packages?limit=1`, {
          headers: { 'x-api-key': 'demo-production-key' },
        })
      ).arrayBuffer();
    const res = await fetch(`${server.origin}/__mock/requests?limit=2`, {
      headers: { 'x-mock-admin-token': 'qa' },
    });
    expect(((await res.json()) as { window: unknown }).window).toMatchObject({
      kept: 2,
      dropped: 1,
      size: 2,
    });
  });
});

describe('--vary', () => {
  it('varies the answers, naming the seed in x-mock-variation', async () => {
    const server = (await quietly(() =>
      main(['--vary', '5', '--port', '0', '--host', '127.0.0.1'], {}),
    ))!;
    running.push(server);
    const res = await fetch(`${server.url}/packages?limit=1`, {
      headers: { 'x-api-key': 'demo-production-key' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-mock-variation')).toMatch(/^seed=5; \S/);
  });

  it('refuses anything but an integer from 0 to 2^32 - 1, naming the flag', async () => {
    for (const bad of ['x', '1.5', '', '4294967296'])
      await expect(main(['--vary', bad, '--port', '0'], {})).rejects.toThrow(
        `--vary must be an integer from 0 to 4294967295 (got "${bad}")`,
      );
  });
});
