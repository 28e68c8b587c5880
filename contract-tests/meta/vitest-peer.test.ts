/**
 * @module meta/vitest-peer.test
 * vitest is an optional peer dependency: the mock alone installs without it, and the contract
 * suite's command and `runContract()` (both through `runSuite`) say how to add it when it is
 * missing, as a usage error (exit 2), before anything else is asked of the target.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/usage.js';
import { vitestEntry } from '../../src/suite/cli.js';

const empty = mkdtempSync(join(tmpdir(), 'no-vitest-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};

describe('vitest, an optional peer dependency', () => {
  it('is a peer (optional) and a dev dependency, not a production one', () => {
    expect(manifest.dependencies.vitest).toBeUndefined();
    expect(manifest.peerDependencies.vitest).toMatch(/^\^4\./);
    expect(manifest.peerDependenciesMeta.vitest).toEqual({ optional: true });
    expect(manifest.devDependencies.vitest).toBe(manifest.peerDependencies.vitest);
  });

  it('found where it is installed', () => {
    expect(vitestEntry()).toMatch(/vitest\.mjs$/);
  });

  it('missing: a usage error naming the install line', () => {
    const from = pathToFileURL(join(empty, 'cli.js')).href;
    expect(() => vitestEntry(from)).toThrow(UsageError);
    expect(() => vitestEntry(from)).toThrow(
      `not installed: npm install --save-dev vitest@${manifest.peerDependencies.vitest}`,
    );
  });
});
