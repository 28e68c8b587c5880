/**
 * @module proxy/args.test
 * Flag parsing for `npm start -- --proxy ...`: the key only from the environment or a file (and
 * never echoed in an error), repeatable origins, numeric flags checked, help.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseProxyArgs, proxyHelp } from './args.js';
import { exitCodeFor, UsageError } from '../usage.js';
import { runProxyCli } from './cli.js';
import { resolveProxyOptions } from './options.js';

const LIVE = 'https://api.example.com/web-data/v1';
const dir = mkdtempSync(join(tmpdir(), 'proxy-args-'));

/** What `run` throws (undefined when it returns). */
function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseProxyArgs', () => {
  it('takes the key from WEB_DATA_API_KEY and the rest from flags', () => {
    const options = parseProxyArgs(
      [
        '--proxy',
        LIVE,
        '--proxy-origin',
        'http://localhost:5173',
        '--proxy-origin',
        'http://127.0.0.1:3000',
        '--port',
        '4021',
        '--signal-violations',
        '--upstream-timeout-ms',
        '2000',
        '--recordings',
        'rec',
      ],
      { WEB_DATA_API_KEY: 'env-secret\n' },
    );
    expect(options).toMatchObject({
      upstream: LIVE,
      apiKey: 'env-secret',
      allowedOrigins: ['http://localhost:5173', 'http://127.0.0.1:3000'],
      port: 4021,
      signalViolations: true,
      upstreamTimeoutMs: 2000,
      recordingsDir: 'rec',
    });
  });

  it('takes --fixtures, the old name of --recordings, as the same option', () => {
    const options = parseProxyArgs(['--proxy', LIVE, '--fixtures', 'rec'], {
      WEB_DATA_API_KEY: 'k',
    });
    expect(options?.recordingsDir).toBe('rec');
    expect(options).not.toHaveProperty('fixturesDir');
  });

  it('refuses --recordings and --fixtures together as a usage error (exit 2) naming both', () => {
    const both = () =>
      parseProxyArgs(['--proxy', LIVE, '--recordings', 'a', '--fixtures', 'b'], {
        WEB_DATA_API_KEY: 'k',
      });
    expect(both).toThrow(
      new UsageError(
        '--recordings and --fixtures (its old name) were both given; give --recordings alone',
      ),
    );
    expect(exitCodeFor(catchError(both))).toBe(2);
  });

  it('prefers --api-key-file (first line, trimmed) over the environment', () => {
    const file = join(dir, 'key');
    writeFileSync(file, '  file-secret  \nignored\n');
    expect(
      parseProxyArgs(['--proxy', LIVE, '--api-key-file', file], { WEB_DATA_API_KEY: 'env-secret' })
        ?.apiKey,
    ).toBe('file-secret');
  });

  it('refuses a key on the command line without repeating it', () => {
    for (const argv of [
      ['--proxy', LIVE, '--api-key', 'cli-secret'],
      ['--proxy', LIVE, '--api-key=cli-secret'],
    ]) {
      const error = (() => {
        try {
          parseProxyArgs(argv, {});
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error).toBeInstanceOf(UsageError);
      expect(error!.message).toMatch(/not accepted on the command line/);
      expect(error!.message).not.toContain('cli-secret');
    }
  });

  it('explains a missing key, a missing or empty key file and a missing --proxy', () => {
    expect(() => parseProxyArgs(['--proxy', LIVE], {})).toThrow(
      /set WEB_DATA_API_KEY or pass --api-key-file/,
    );
    expect(() =>
      parseProxyArgs(['--proxy', LIVE, '--api-key-file', join(dir, 'absent')], {}),
    ).toThrow(/cannot read .*ENOENT/);
    const empty = join(dir, 'empty');
    writeFileSync(empty, '\n');
    expect(() => parseProxyArgs(['--proxy', LIVE, '--api-key-file', empty], {})).toThrow(
      /is empty/,
    );
    expect(() => parseProxyArgs([], { WEB_DATA_API_KEY: 'k' })).toThrow(
      /--proxy <live base URL> is required/,
    );
    expect(() =>
      parseProxyArgs(['--proxy', LIVE, '--port', 'x'], { WEB_DATA_API_KEY: 'k' }),
    ).toThrow(/--port must be/);
    expect(() =>
      parseProxyArgs(['--proxy', 'https://api.example.com/v2'], { WEB_DATA_API_KEY: 'k' }),
    ).toThrow(UsageError);
    expect(() =>
      parseProxyArgs(['--proxy', LIVE, '--proxy-origin', 'localhost:5173/x'], {
        WEB_DATA_API_KEY: 'k',
      }),
    ).toThrow(UsageError);
  });

  it.each([
    [['--port', '0.5'], '--port must be an integer from 0 to 65535 (got "0.5")'],
    [['--port', '1e3'], '--port must be an integer from 0 to 65535 (got "1e3")'],
    [['--upstream-timeout-ms', '0'], '--upstream-timeout-ms must be an integer >= 1 (got "0")'],
    [['--upstream-timeout-ms=-5'], '--upstream-timeout-ms must be an integer >= 1 (got "-5")'],
    [['--max-json-bytes', ''], '--max-json-bytes must be an integer >= 1 (got "")'],
    [
      ['--max-json-bytes', '99999999999999999999'],
      '--max-json-bytes must be an integer >= 1 (got "99999999999999999999")',
    ],
  ])('refuses %j naming the flag and the rule', (flags, message) => {
    expect(() => parseProxyArgs(['--proxy', LIVE, ...flags], { WEB_DATA_API_KEY: 'k' })).toThrow(
      new UsageError(message),
    );
  });

  it('returns undefined for --help, whose text names every flag', () => {
    expect(parseProxyArgs(['--help'], {})).toBeUndefined();
    for (const flag of [
      '--proxy',
      '--api-key-file',
      '--proxy-origin',
      '--recordings',
      '--fixtures',
      '--signal-violations',
      '--upstream-timeout-ms',
      '--port',
    ])
      expect(proxyHelp).toContain(flag);
  });
});

describe('resolveProxyOptions', () => {
  it('normalises the upstream and the origins', () => {
    const options = resolveProxyOptions({
      upstream: `${LIVE}/`,
      apiKey: 'k',
      allowedOrigins: ['HTTP://LocalHost:5173/'],
    });
    expect(options.upstream).toBe(LIVE);
    expect(options.allowedOrigins).toEqual(['http://localhost:5173']);
  });

  it('refuses upstreams that are not a plain base URL ending in /web-data/v1, and origins with paths', () => {
    expect(() =>
      resolveProxyOptions({ upstream: 'https://api.example.com/v2', apiKey: 'k' }),
    ).toThrow(/must end in \/web-data\/v1/);
    expect(() =>
      resolveProxyOptions({ upstream: 'ftp://api.example.com/web-data/v1', apiKey: 'k' }),
    ).toThrow(/http\(s\)/);
    expect(() =>
      resolveProxyOptions({ upstream: 'https://u:p@api.example.com/web-data/v1', apiKey: 'k' }),
    ).toThrow(/credentials/);
    expect(() => resolveProxyOptions({ upstream: LIVE, apiKey: '' })).toThrow(/no API key/);
    expect(() =>
      resolveProxyOptions({
        upstream: LIVE,
        apiKey: 'k',
        allowedOrigins: ['http://localhost:5173/app'],
      }),
    ).toThrow(/not an origin/);
    expect(() =>
      resolveProxyOptions({ upstream: LIVE, apiKey: 'k', upstreamTimeoutMs: 0 }),
    ).toThrow(/upstreamTimeoutMs/);
  });

  it('takes fixturesDir, the deprecated name of recordingsDir, and refuses both at once', () => {
    const old = resolveProxyOptions({ upstream: LIVE, apiKey: 'k', fixturesDir: 'rec' });
    expect(old.recordingsDir).toBe('rec');
    expect(old).not.toHaveProperty('fixturesDir');
    expect(
      resolveProxyOptions({ upstream: LIVE, apiKey: 'k', recordingsDir: 'rec' }),
    ).toMatchObject({ recordingsDir: 'rec' });
    expect(() =>
      resolveProxyOptions({ upstream: LIVE, apiKey: 'k', recordingsDir: 'a', fixturesDir: 'b' }),
    ).toThrow(
      'proxy: recordingsDir and fixturesDir (its old name) were both given; give recordingsDir alone',
    );
  });
});

describe('runProxyCli', () => {
  it('prints help, or starts and prints where it listens without the key', async () => {
    let out = '';
    expect(await runProxyCli(['--help'], {}, (t) => (out += t))).toBeUndefined();
    expect(out).toBe(proxyHelp);
    out = '';
    const running = await runProxyCli(
      ['--proxy', LIVE, '--port', '0', '--proxy-origin', 'http://localhost:5173'],
      { WEB_DATA_API_KEY: 'banner-secret' },
      (t) => (out += t),
    );
    try {
      expect(out).toContain(`${running!.url} -> ${LIVE}`);
      expect(out).toContain('http://localhost:5173');
      expect(out).not.toContain('banner-secret');
    } finally {
      await running?.close();
    }
  });
});
