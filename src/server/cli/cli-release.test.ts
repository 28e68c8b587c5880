/**
 * @module cli-release.test
 * The release has one name everywhere: the mock's `--release` (as the suite's flag and the
 * library's option), with `--api-version` kept as its older alias; a release the changelog does
 * not name, or the two flags disagreeing, is a usage error naming the flag.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { helpText, main } from './cli.js';
import type { RunningServer } from '../listen.js';
import { UsageError } from '../../usage.js';
import { quietly } from '../../testing/expected-output.js';

const running: RunningServer[] = [];
afterAll(() => Promise.all(running.map((r) => r.close())));

async function servedRelease(argv: string[]): Promise<string> {
  const server = (await quietly(() => main([...argv, '--port', '0', '--host', '127.0.0.1'], {})))!;
  running.push(server);
  const port = (server.server.address() as { port: number }).port;
  const res = await fetch(`http://127.0.0.1:${port}/examples.json`);
  return ((await res.json()) as { release: string }).release;
}

describe('--release', () => {
  it('serves the release named, by --release or by its alias --api-version', async () => {
    expect(await servedRelease(['--release', '1.1.0'])).toBe('1.1.0');
    expect(await servedRelease(['--api-version', '1.2.0'])).toBe('1.2.0');
    expect(await servedRelease(['--release', '1.0.0', '--api-version', '1.0.0'])).toBe('1.0.0');
  });

  it('is a usage error naming the flag for an unknown release or a disagreeing alias', async () => {
    const unknown = main(['--release', '9.9', '--port', '0'], {});
    await expect(unknown).rejects.toBeInstanceOf(UsageError);
    await expect(unknown).rejects.toThrow(/^--release: Unknown release "9\.9"/);
    await expect(main(['--release', '1.1.0', '--api-version', '1.2.0'], {})).rejects.toThrow(
      /--release "1\.1\.0" and --api-version "1\.2\.0" \(its older name\) disagree/,
    );
  });

  it('is in --help, the alias beside it', () => {
    expect(helpText('web-data-mock')).toMatch(/--release <v> +serve what release <v> served/);
    expect(helpText('web-data-mock')).toMatch(/--api-version <v> +the older name of --release/);
  });
});
