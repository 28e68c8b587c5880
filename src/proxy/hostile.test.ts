/**
 * @module proxy/hostile.test
 * The proxy with `--profile` in front of a hostile live service (src/testing/hostile-upstream.ts),
 * over real HTTP: whatever the service sends, the profile it writes holds no form of the key (in
 * any case), is accepted by the profile reader (so the next night's `--baseline` can use it) and
 * by the ledger, keeps names from the server as names (never a prototype lookup), stores no
 * number a reader would refuse, cuts long names, and leaves out (and counts) an answer too deep
 * to fold instead of not writing the profile at all. The proxy's log holds no form of the key.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { documentFacts } from '../evidence/facts.js';
import { buildLedger } from '../evidence/ledger.js';
import { MAX_NAME_CHARS, mergeInto, readProfile, type Profile } from '../evidence/profile.js';
import { holdsSecret } from '../redaction.js';
import {
  startHostileUpstream,
  type HostileKnobs,
  type HostileUpstream,
} from '../testing/hostile-upstream.js';
import { startMockServer } from '../server/listen.js';
import { DEMO } from '../testing/mock-app.js';
import { startProxy } from './listen.js';
import { MAX_FINDING_LINES } from './report.js';
import { logSink } from './testdata/servers.js';

/** Upper-case hex, as keys are often issued: the lower-cased header names and media types hold it lower-cased. */
const KEY = 'AbCdEf0123456789ABCDEF42';
/** A key the mock knows, for the honest service behind the hostile one. */
const DEMO_KEY = DEMO.production;

let upstream: HostileUpstream;
let dir: string;

beforeAll(async () => {
  upstream = await startHostileUpstream();
  dir = mkdtempSync(join(tmpdir(), 'proxy-hostile-'));
});

afterAll(async () => {
  await upstream?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs a proxy with `--profile` in front of the hostile service, sends `paths`, closes it; its profile file's text and its log. */
async function profileThrough(
  name: string,
  knobs: HostileKnobs,
  paths: readonly string[],
  apiKey = KEY,
): Promise<{ text: string; profile: Profile; log: string[] }> {
  upstream.set(knobs);
  const file = join(dir, `${name}.json`);
  const sink = logSink();
  const proxy = await startProxy({
    upstream: upstream.url,
    apiKey,
    log: sink.log,
    profileFile: file,
    profileIntervalMs: 3_600_000,
  });
  for (const path of paths) await (await fetch(`${proxy.url}${path}`)).arrayBuffer();
  await proxy.close();
  return { text: readFileSync(file, 'utf8'), profile: readProfile(file), log: sink.lines };
}

const PATHS = ['/products', '/products/P1', '/products/missing'];

describe('proxy --profile against a hostile live service', () => {
  for (const keyCase of ['as-sent', 'lower', 'upper', 'mixed'] as const)
    it(`writes no form of the key echoed (${keyCase}) in header names, values, the media type and the body`, async () => {
      const { text, log } = await profileThrough(
        `echo-${keyCase}`,
        {
          echoKey: {
            case: keyCase,
            in: ['header-name', 'header-value', 'content-type', 'body-name', 'body-value'],
          },
        },
        PATHS,
      );
      expect(holdsSecret(text, [KEY])).toBe(false);
      expect(text.toLowerCase()).not.toContain(KEY.toLowerCase());
      for (const line of log) expect(holdsSecret(line, [KEY])).toBe(false);
    });

  it('keeps constructor, toString and __proto__ as names, and a number beyond a double as a count', async () => {
    const { text, profile } = await profileThrough(
      'prototype',
      { prototypeNames: true, hugeNumbers: true },
      PATHS,
    );
    expect(text).not.toContain('function');
    const list = profile.operations.listProducts;
    expect(Object.hasOwn(list.headers, 'constructor')).toBe(true);
    expect(list.headers.constructor).toBe(1);
    expect(Object.hasOwn(list.headers, '__proto__')).toBe(true);
    // The 400-digit limit: its presence counted, no value kept.
    expect(list.headers['x-ratelimit-limit']).toBe(1);
    expect(Object.hasOwn(list.headerValues, 'x-ratelimit-limit')).toBe(false);
    const big = list.bodies['200'].locations['/data/*/big'];
    expect(big.outOfRange).toBe(3);
    expect(big.numbers).toBeUndefined();
    const values = list.bodies['200'].locations['/data/*/constructor'].values!;
    expect(Object.hasOwn(values, 'constructor')).toBe(true);
    expect(Object.keys(profile.operations.getProduct.errorShapes['404'])).toEqual([
      '__proto__,big,constructor,error,toString',
    ]);

    // The next night: the profile is a baseline like any other, merged and judged.
    const tonight = readProfile(join(dir, 'prototype.json'));
    expect(mergeInto(tonight, profile).count).toBe(6);
    const contract = await loadContract();
    expect(buildLedger(documentFacts(contract), profile).responses).toBe(3);
  });

  it(`cuts a server's long names to ${MAX_NAME_CHARS} characters and counts them`, async () => {
    const { profile, text, log } = await profileThrough('long', { longName: 100_000 }, [
      '/products',
    ]);
    expect(profile.namesCut).toBe(1);
    // The proxy's log names the undeclared field too, cut.
    expect(log.some((line) => /…\(\d+ (chars|characters cut)\)/.test(line))).toBe(true);
    for (const line of log) expect(line.length).toBeLessThan(10_000);
    const pointers = Object.keys(profile.operations.listProducts.bodies['200'].locations);
    expect(pointers).toContain(`/data/*/${'n'.repeat(MAX_NAME_CHARS)}…`);
    expect(text.length).toBeLessThan(20_000);
  });

  it('leaves out an answer nested 200,000 deep, counts it, and still writes the profile', async () => {
    upstream.set({});
    const file = join(dir, 'deep.json');
    const sink = logSink();
    const proxy = await startProxy({
      upstream: upstream.url,
      apiKey: KEY,
      log: sink.log,
      profileFile: file,
      profileIntervalMs: 3_600_000,
    });
    await (await fetch(`${proxy.url}/products`)).arrayBuffer();
    upstream.set({ depth: 200_000 });
    await (await fetch(`${proxy.url}/products`)).arrayBuffer();
    await proxy.close();
    const profile = readProfile(file);
    expect(profile.unprofiled).toBe(1);
    expect(profile.operations.listProducts.count).toBe(1);
    expect(sink.lines.join('\n')).not.toMatch(/profile not written|left out/);
  });

  it("spoils an honest service's answers: the mock's records with the attacks added", async () => {
    const mock = await startMockServer({});
    try {
      const { profile, text } = await profileThrough(
        'honest',
        {
          honest: mock.url,
          prototypeNames: true,
          echoKey: { case: 'lower', in: ['header-name', 'body-name'] },
        },
        ['/products?limit=3'],
        DEMO_KEY,
      );
      const locations = profile.operations.listProducts.bodies['200'].locations;
      expect(Object.hasOwn(locations, '/data/*/productId')).toBe(true);
      expect(Object.hasOwn(locations, '/data/*/constructor')).toBe(true);
      expect(Object.hasOwn(profile.operations.listProducts.headers, '__proto__')).toBe(true);
      expect(holdsSecret(text, [DEMO_KEY])).toBe(false);
    } finally {
      await mock.close();
    }
  });

  it('logs at most 20 finding lines an answer, counting them all: 25 records of 1,000 undeclared fields', async () => {
    upstream.set({ undeclaredFields: 1000, records: 25 });
    const sink = logSink();
    const proxy = await startProxy({ upstream: upstream.url, apiKey: KEY, log: sink.log });
    try {
      await (await fetch(`${proxy.url}/products`)).arrayBuffer();
      const findingLines = sink.events().filter((e) => e.event !== 'request');
      expect(findingLines.length).toBeLessThanOrEqual(MAX_FINDING_LINES + 1);
      expect(sink.events('findings-not-logged')).toHaveLength(1);
      expect(sink.events('undeclared-field')[0].occurrences).toBe(25);
      expect(proxy.app.reporter.stats().undeclaredFields).toBeGreaterThanOrEqual(25_000);
    } finally {
      await proxy.close();
    }
  });

  it('writes a profile its reader accepts with a one-letter key (the format keeps its own words)', async () => {
    const { profile, text } = await profileThrough(
      'short-key',
      { echoKey: { case: 'upper', in: ['header-name', 'body-value'] } },
      PATHS,
      'k',
    );
    expect(profile.bounds.keys).toBeGreaterThan(0);
    // The key is gone from every name and value the server chose; the format's own words ("keys") stay.
    const op = profile.operations.listProducts;
    expect(Object.keys(op.headers).filter((name) => /k/i.test(name))).toEqual([]);
    expect(Object.keys(op.contentTypes)).toEqual(['application/json']);
    expect(text).toContain('"keys": 64');
  });
});
