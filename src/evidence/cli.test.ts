/**
 * @module evidence/cli.test
 * `web-data-evidence profile`: a session recorded by the proxy in front of the real mock becomes a
 * profile (the same bytes twice), profiles merge (counts add up), and bad input is a usage error
 * (exit 2) naming the flag or the file, with nothing written.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy } from '../proxy/listen.js';
import { startMockServer } from '../server/listen.js';
import { readProfile } from './profile.js';
import { EvidenceUsageError, profileCommand } from './profile-command.js';

const BIN = fileURLToPath(new URL('../../bin/web-data-evidence.js', import.meta.url));

let dir: string;
let fixtures: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-cli-'));
  fixtures = join(dir, 'fixtures');
  const mock = await startMockServer({ apiVersion: 'unreleased', validateResponses: false });
  const proxy = await startProxy({
    upstream: mock.url,
    apiKey: 'demo-unlimited-key',
    fixturesDir: fixtures,
    log: () => {},
  });
  try {
    for (const path of ['/packages', '/packages?limit=5&offset=1', '/documents', '/boards-kits'])
      await (await fetch(`${proxy.url}${path}`)).arrayBuffer();
  } finally {
    await proxy.close();
    await mock.close();
  }
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });

describe('web-data-evidence profile', () => {
  it('builds a profile from recordings, the same bytes twice, and merges profiles', () => {
    const out = join(dir, 'out', 'profile.json');
    const first = run(['profile', '--fixtures', fixtures, '-o', out]);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const profile = readProfile(out);
    expect(profile.count).toBe(4);
    expect(profile.operations.listPackages.statuses).toEqual({ '200': 2 });
    expect(profile.operations.listPackages.list?.defaultSizes).toEqual({ '10': 1 });
    const again = run(['profile', '--fixtures', fixtures]);
    expect(again.stdout).toBe(readFileSync(out, 'utf8'));
    const merged = run(['profile', '--merge', out, '--merge', out]);
    expect(merged.status).toBe(0);
    expect(JSON.parse(merged.stdout).operations.listPackages.statuses).toEqual({ '200': 4 });
  });

  it('refuses bad input with exit 2, naming the flag or file, and writes nothing', async () => {
    const notProfile = join(dir, 'report.json');
    writeFileSync(notProfile, '{"findings": []}');
    const out = join(dir, 'never.json');
    const bad = run(['profile', '--merge', notProfile, '-o', out]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      new RegExp(`^web-data-evidence: profile: ${notProfile}: not a profile`),
    );
    expect(existsSync(out)).toBe(false);
    expect(run(['nonsense']).stderr).toMatch(/unknown command "nonsense" \(commands: profile/);
    await expect(profileCommand([])).rejects.toThrow(EvidenceUsageError);
    await expect(profileCommand(['--fixture', 'x'])).rejects.toThrow(/--fixture/);
    await expect(profileCommand(['--fixtures', join(dir, 'missing')])).rejects.toThrow(/missing/);
  });
});
