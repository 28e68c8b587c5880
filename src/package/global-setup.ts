/**
 * The package project's one expensive step, done once for all its files: `npm pack` (which builds
 * dist/) into an empty project, then an install of it with production dependencies only, from
 * the local npm cache, plus what a user adds: msw (their own test tool, for the in-process example
 * of docs/library.md) and vitest (the optional peer the contract suite runs on, as the suite's
 * message says). The files read the folder with `installedProject()` (installed-project.ts).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PACKAGE_ROOT } from '../package-root.js';
import { ok, runIn } from './installed-project.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const folder = mkdtempSync(join(tmpdir(), 'web-data-installed-'));
  const packed = await ok(
    runIn(folder, 'npm', ['pack', '--silent', '--pack-destination', folder, PACKAGE_ROOT]),
  );
  const tarball = packed.trim().split('\n').at(-1)!;
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
  );
  const { peerDependencies } = JSON.parse(
    readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'),
  ) as { peerDependencies: Record<string, string> };
  await ok(
    runIn(folder, 'npm', [
      'install',
      '--omit=dev',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      `./${tarball}`,
      'msw@^2',
      `vitest@${peerDependencies.vitest}`,
    ]),
  );
  project.provide('installedProject', folder);
  project.provide('installedTarball', tarball);
  return () => rmSync(folder, { recursive: true, force: true });
}
