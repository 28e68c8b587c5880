/**
 * @module api/option-names.test
 * An option the library does not know is refused at run time with a TypeError naming it and the
 * nearest known one (a JavaScript caller has no compiler to catch the slip), for every public
 * function that takes an options object. A renamed option is still taken under its old name
 * (`fixturesDir` for `recordingsDir`): giving both names is refused, naming both.
 */
import { describe, expect, it } from 'vitest';
import { createMockApp, qaControls, runContract, startMock, startProxy } from '../index.js';
import { editDistance, nearestName } from '../text/nearest.js';

/** The options as a JavaScript caller passes them: no compiler between the slip and the call. */
const untyped = <T>(options: Record<string, unknown>) => options as T;

describe('unknown library options', () => {
  it('createMockApp refuses adminTokn, naming adminToken', async () => {
    const error = await createMockApp(untyped({ adminTokn: 'qa' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /^createMockApp: unknown option "adminTokn" \(did you mean "adminToken"\?\); known options: seed, /,
    );
  });

  it('startMock refuses sed, naming seed, before it opens a socket', async () => {
    // The unit project forbids listening: reaching the socket would throw another error.
    await expect(startMock(untyped({ sed: 2 }))).rejects.toThrow(
      new TypeError(
        'startMock: unknown option "sed" (did you mean "seed"?); known options: ' +
          'seed, scale, release, environment, keysFile, tiersFile, rateLimit, faults, latency, ' +
          'faultSeed, adminToken, validateResponses, log, replayDir, records, vary, state, ' +
          'statePrefix, journal, scopeTtlSeconds, maxScopes, port, host',
      ),
    );
  });

  it('names no suggestion when nothing is near, and escapes the name', async () => {
    await expect(createMockApp(untyped({ 'zzz\u009b\u202e': 1 }))).rejects.toThrow(
      /unknown option "zzz\\u009b\\u202e"; known options/,
    );
    await expect(createMockApp(untyped({ state: 42 }))).rejects.toThrow(TypeError);
    await expect(createMockApp(untyped({ state: 'mongodb://x' }))).rejects.toThrow(
      /state must be 'memory' or a Redis URL/,
    );
  });

  it('qaControls refuses an unknown option', () => {
    expect(() =>
      qaControls(untyped({ origin: 'http://127.0.0.1:1', adminToken: 'qa', fetchh: fetch })),
    ).toThrow('qaControls: unknown option "fetchh" (did you mean "fetch"?)');
  });

  it('runContract and startProxy refuse one before loading the suite or the proxy', async () => {
    await expect(runContract(untyped({ baseURL: 'http://127.0.0.1:1' }))).rejects.toThrow(
      new TypeError(
        'runContract: unknown option "baseURL" (did you mean "baseUrl"?); known options: ' +
          'baseUrl, apiKey, restrictedApiKey, rateLimitApiKey, release, strict, allowlist, ' +
          'publicBaseUrl, xrefNumbers, baseline, restrictedFamilies, provokeRateLimit, ' +
          'concurrency, timeoutMs, maxRequests, maxBodyBytes, maxRetryWaitMs, seed, reportDir, output',
      ),
    );
    await expect(
      startProxy(untyped({ upstream: 'http://127.0.0.1:1', apiKey: 'k', allowedOrigin: ['x'] })),
    ).rejects.toThrow(
      'startProxy: unknown option "allowedOrigin" (did you mean "allowedOrigins"?)',
    );
  });

  it('accepts state: "memory" as the default said outright', async () => {
    const mock = await createMockApp({ state: 'memory' });
    expect((await mock.qa.config()).state).toMatchObject({ store: 'memory' });
    await mock.close();
  });
});

describe('renamed options', () => {
  const upstream = 'http://127.0.0.1:1/web-data/v1';

  // That the old name alone still records is src/proxy/recording.test.ts's (it opens a socket).
  it('startProxy refuses recordingsDir and fixturesDir together, naming both', async () => {
    await expect(
      startProxy({ upstream, apiKey: 'k', recordingsDir: 'a', fixturesDir: 'b' }),
    ).rejects.toThrow(
      'proxy: recordingsDir and fixturesDir (its old name) were both given; give recordingsDir alone',
    );
  });
});

describe('nearestName', () => {
  it('finds slips, swaps and case, and nothing far', () => {
    expect(editDistance('adminTokn', 'adminToken')).toBe(1);
    expect(editDistance('sede', 'seed')).toBe(1);
    expect(nearestName('sed', ['seed', 'scale'])).toBe('seed');
    expect(nearestName('ADMINTOKEN', ['adminToken'])).toBe('adminToken');
    expect(nearestName('banana', ['seed', 'scale'])).toBeUndefined();
    expect(nearestName('x'.repeat(100_000), ['seed'])).toBeUndefined();
  });
});
