/**
 * @module evidence/cli.test
 * `web-data-evidence profile`: a session recorded by the proxy in front of the real mock becomes a
 * profile (the same bytes twice), profiles merge (counts add up), and bad input is a usage error
 * (exit 2) naming the flag or the file, with nothing written. `--fixtures` is still taken as the
 * old name of `--recordings`, and the two together are a usage error.
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
let recordings: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-cli-'));
  recordings = join(dir, 'recordings');
  const mock = await startMockServer({ apiVersion: 'unreleased', validateResponses: false });
  const proxy = await startProxy({
    upstream: mock.url,
    apiKey: 'demo-unlimited-key',
    recordingsDir: recordings,
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
    const first = run(['profile', '--recordings', recordings, '-o', out]);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const profile = readProfile(out);
    expect(profile.count).toBe(4);
    expect(profile.operations.listPackages.statuses).toEqual({ '200': 2 });
    expect(profile.operations.listPackages.list?.defaultSizes).toEqual({ '10': 1 });
    const again = run(['profile', '--recordings', recordings]);
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
    await expect(profileCommand(['--recording', 'x'])).rejects.toThrow(/--recording/);
    await expect(profileCommand(['--recordings', join(dir, 'missing')])).rejects.toThrow(/missing/);
  });

  it('takes --fixtures, the old name of --recordings, as the same folders', async () => {
    let byNew = '';
    let byOld = '';
    expect(await profileCommand(['--recordings', recordings], (t) => (byNew += t))).toBe(0);
    expect(await profileCommand(['--fixtures', recordings], (t) => (byOld += t))).toBe(0);
    expect(byOld).toBe(byNew);
    expect(JSON.parse(byOld).count).toBe(4);
  });

  it('refuses --recordings and --fixtures together with exit 2, naming both', () => {
    const both = run(['profile', '--recordings', recordings, '--fixtures', recordings]);
    expect(both.status).toBe(2);
    expect(both.stdout).toBe('');
    expect(both.stderr).toBe(
      'web-data-evidence: profile: --recordings and --fixtures (its old name) were both given; give --recordings alone\n',
    );
  });
});
