/**
 * The project the package project's files share: one `npm pack` and one install into an empty
 * folder (global-setup.ts makes it, once per run), and the ways a test runs a command there.
 * Each test file of src/package/ reads the folder with `installedProject()`.
 */
import { spawn } from 'node:child_process';
import { inject } from 'vitest';

declare module 'vitest' {
  interface ProvidedContext {
    /** The empty project the packed package was installed into (global-setup.ts). */
    installedProject: string;
    /** The packed package's file name in that project. */
    installedTarball: string;
  }
}

export const MINUTES = 60_000;

/** The shared project's folder and the tarball in it. */
export function installedProject(): { project: string; tarball: string } {
  return { project: inject('installedProject'), tarball: inject('installedTarball') };
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command in `cwd` with the caller's environment minus the suite's. Not spawnSync: a
 * target served by this very process (a broken one) must keep answering.
 */
export function runIn(
  cwd: string,
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<Ran> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('CONTRACT_') && !k.startsWith('VITEST'),
    ),
  );
  const child = spawn(command, args, { cwd, env: { ...clean, NO_COLOR: '1', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The command's standard output, or an error with the ends of both outputs when it failed. */
export async function ok(running: Promise<Ran>): Promise<string> {
  const result = await running;
  if (result.status !== 0)
    throw new Error(
      `exit ${result.status}\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-3000)}`,
    );
  return result.stdout;
}

/** `npm install` into `prefix` of production dependencies only, from the local npm cache. */
export function installProduction(cwd: string, prefix: string, specs: string[]): Promise<string> {
  const flags = ['--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'];
  return ok(runIn(cwd, 'npm', ['install', '--prefix', prefix, ...flags, ...specs]));
}
