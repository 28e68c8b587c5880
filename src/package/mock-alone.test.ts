/**
 * The mock without the suite's weight (issue 38 item 5): the packed package installed alone, with
 * production dependencies only and no vitest, comes to at most 30 MB; `npx web-data-mock` serves
 * there, and `npx web-data-contract` says how to add vitest (exit 2) instead of failing on a
 * missing module.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-root.js';
import {
  installedProject,
  installProduction,
  killStartedMocks,
  MINUTES,
  runIn,
  startMockIn,
} from './installed-project.js';

/** What a user installing the mock alone may pay, in bytes on disk (1 MB = 1,000,000 bytes). */
const MOCK_ALONE_LIMIT_BYTES = 30_000_000;

let alone: string;

beforeAll(async () => {
  const { project, tarball } = installedProject();
  alone = mkdtempSync(join(tmpdir(), 'web-data-mock-alone-'));
  writeFileSync(
    join(alone, 'package.json'),
    JSON.stringify({ name: 'mock-alone', private: true, type: 'module' }),
  );
  await installProduction(alone, alone, [join(project, tarball)]);
}, 5 * MINUTES);

afterAll(() => {
  killStartedMocks();
  if (alone) rmSync(alone, { recursive: true, force: true });
});

/** Bytes of every file under `dir`, as `du -sb` counts them (symbolic links not followed). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

describe('the mock installed alone (npm install --omit=dev, no vitest)', () => {
  it('brings no vitest and comes to at most 30 MB', () => {
    const modules = join(alone, 'node_modules');
    expect(readdirSync(modules)).not.toContain('vitest');
    expect(bytesUnder(modules)).toBeLessThanOrEqual(MOCK_ALONE_LIMIT_BYTES);
  });

  it('npx web-data-mock serves there', { timeout: MINUTES }, async () => {
    const mock = await startMockIn(alone);
    const answer = await fetch(`${mock.url}/products?limit=1`, {
      headers: { 'x-api-key': 'demo-production-key' },
    });
    expect(answer.status).toBe(200);
    expect(await mock.stop()).toBe(true);
  });

  it('npx web-data-contract names the line that adds vitest: exit 2', async () => {
    const { peerDependencies } = JSON.parse(
      readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'),
    ) as { peerDependencies: Record<string, string> };
    const result = await runIn(alone, 'npx', ['--no-install', 'web-data-contract']);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(`npm install --save-dev vitest@${peerDependencies.vitest}`);
  });
});
