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

const mocks = new Set<number>();

/**
 * Starts `npx web-data-mock --port 0` in `cwd`, in its own process group (so that afterAll
 * can end whatever a failed test leaves); resolves once it prints its URL. `stop` signals the npx
 * process alone, as the README's `kill $!` does: npm hands SIGTERM to the `sh -c` it runs the bin
 * through, which dies without passing it on, and the mock stops because its parent is gone.
 */
export function startMockIn(cwd: string): Promise<{ url: string; stop(): Promise<boolean> }> {
  const child = spawn('npx', ['--no-install', 'web-data-mock', '--port', '0'], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    detached: true,
  });
  mocks.add(child.pid!);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => reject(new Error(`web-data-mock exited ${code}: ${output}`)));
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      const url = /production\s+(http:\/\/\S+\/web-data\/v1)/.exec(output)?.[1];
      if (!url) return;
      child.removeAllListeners('exit');
      resolve({
        url,
        // npx's own exit is not a reliable signal here; the mock no longer answering is, within
        // the shutdown grace (10 s).
        stop: async () => {
          process.kill(child.pid!, 'SIGTERM');
          for (let waited = 0; waited < 10_000; waited += 100) {
            try {
              await fetch(url, { signal: AbortSignal.timeout(1000) });
            } catch {
              mocks.delete(child.pid!);
              return true;
            }
            await new Promise((r) => setTimeout(r, 100));
          }
          return false;
        },
      });
    });
  });
}

/** Ends whatever mock a failed test left running (its whole process group). */
export function killStartedMocks(): void {
  for (const pid of mocks) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  mocks.clear();
}
