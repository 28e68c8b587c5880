/**
 * The package's `web-data-mock` bin as `npx` runs it (the compiled dist/, so `npm run build`
 * first, as `npm test` does): npm 11 starts a bin through `sh -c`, and a shell that dies of
 * SIGTERM does not pass it on. The mock must stop all the same, and name itself in `--help`.
 * (src/package/installed.test.ts does the same through a real `npx` from the packed package.)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-root.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'web-data-mock.js');
const started = new Set<number>();
afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone, as it should be
    }
  }
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The bin under a `sh -c` that, like npm's, stays the mock's parent (the trailing command keeps
 * the shell from exec'ing node); resolves with the shell, the mock's pid (from its banner) and URL.
 */
function startUnderShell(): Promise<{ shell: ChildProcess; pid: number; url: string }> {
  const shell = spawn(
    'sh',
    ['-c', `node "${BIN}" --port 0 --host 127.0.0.1 --instance-id bin-test; exit $?`],
    { env: { ...process.env, NO_COLOR: '1' } },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    shell.stderr.on('data', (c: Buffer) => (output += c.toString()));
    shell.on('exit', (code) => reject(new Error(`the mock exited ${code}: ${output}`)));
    const onData = (c: Buffer) => {
      output += c.toString();
      const url = /production\s+(http:\/\/\S+\/web-data\/v1)/.exec(output)?.[1];
      if (!url) return;
      shell.removeAllListeners('exit');
      shell.stdout.off('data', onData);
      // The shell's only child is the mock: its pid, from the process table.
      const children = spawnSync('pgrep', ['-P', String(shell.pid)], { encoding: 'utf8' });
      const pid = Number(children.stdout.trim());
      // Never 0 or a group: afterAll sends SIGKILL to what is left.
      if (!Number.isSafeInteger(pid) || pid <= 1)
        return reject(new Error(`no single child of the shell: ${children.stdout}`));
      started.add(pid);
      resolve({ shell, pid, url });
    };
    shell.stdout.on('data', onData);
  });
}

/** Resolves once `pid` has exited (the vitest timeout bounds the wait). */
async function exited(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((r) => setTimeout(r, 50));
  started.delete(pid);
}

describe('the web-data-mock bin', () => {
  it('names itself in --help, for the mock and for the proxy', () => {
    const mock = spawnSync('node', [BIN, '--help'], { encoding: 'utf8' });
    expect(mock.status).toBe(0);
    expect(mock.stdout).toContain('Usage: web-data-mock [options]');
    expect(mock.stdout).toContain('see web-data-mock --proxy --help');
    expect(mock.stdout).not.toContain('npm start');
    const proxy = spawnSync('node', [BIN, '--proxy', 'x', '--help'], { encoding: 'utf8' });
    expect(proxy.status).toBe(0);
    expect(proxy.stdout).toContain('Usage: web-data-mock --proxy <live base URL');
    expect(proxy.stdout).not.toContain('npm start');
  });

  it('stops, freeing its port, when the shell that started it dies of SIGTERM', async () => {
    const { shell, pid, url } = await startUnderShell();
    expect((await fetch(`${url}/products?limit=1`)).status).toBe(401);
    shell.kill('SIGTERM');
    await exited(pid);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('stops when the process that started it is killed outright', async () => {
    const { shell, pid, url } = await startUnderShell();
    shell.kill('SIGKILL');
    await exited(pid);
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe('npm start, as the README runs it in the background', () => {
  it('stops, freeing its port, when `kill $!` signals npm (no tsx process left between npm and the mock)', async () => {
    const npm = spawn('npm', ['start', '--', '--port', '0', '--host', '127.0.0.1'], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      npm.on('exit', (code) => reject(new Error(`npm start exited ${code}: ${output}`)));
      npm.stderr.on('data', (c: Buffer) => (output += c.toString()));
      npm.stdout.on('data', (c: Buffer) => {
        output += c.toString();
        const found = /production\s+(http:\/\/\S+\/web-data\/v1)/.exec(output)?.[1];
        if (found) resolve(found);
      });
    });
    npm.removeAllListeners('exit');
    const mockPid = Number(/pid (\d+)/.exec(output)?.[1] ?? NaN);
    if (Number.isSafeInteger(mockPid) && mockPid > 1) started.add(mockPid);
    expect((await fetch(`${url}/products?limit=1`)).status).toBe(401);
    npm.kill('SIGTERM');
    // The port is freed within the shutdown grace; the vitest timeout bounds the wait.
    for (;;) {
      try {
        await fetch(url);
        await new Promise((r) => setTimeout(r, 100));
      } catch {
        break;
      }
    }
    await expect(fetch(url)).rejects.toThrow();
  });
});
