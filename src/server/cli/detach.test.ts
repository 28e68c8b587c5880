/**
 * @module detach.test
 * CI steps that keep the mock: `web-data-mock --detach` in one shell, requests after that shell
 * has exited, `web-data-mock stop --port N` in another shell, as a workflow's separate steps run
 * them. The compiled bin (`dist/`), a runtime folder of the test's own (`XDG_RUNTIME_DIR`). Also:
 * a mock that cannot start exits 2 with its reason; and a stale record (its pid now an unrelated
 * process) never ends that process, and on Linux does not hold `stop` up either (the process's
 * environment tells it is not the mock: `stop` once waited 10 s on it).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DETACHED_ENV, stillTheMock } from './detach.js';

const BIN = fileURLToPath(new URL('../../../bin/web-data-mock.js', import.meta.url));
const runtime = mkdtempSync(join(tmpdir(), 'detach-'));
const env = { ...process.env, XDG_RUNTIME_DIR: runtime, NO_COLOR: '1' };
const STEP_MS = 60_000;

/** One CI step: a fresh shell running `command`, to its end. */
function step(command: string) {
  const ran = spawnSync('bash', ['-c', command], { env, encoding: 'utf8', timeout: STEP_MS });
  return { code: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

const started: number[] = [];
afterAll(() => {
  for (const port of started) step(`node ${BIN} stop --port ${port}`);
  rmSync(runtime, { recursive: true, force: true });
});

async function answers(url: string): Promise<number | string> {
  try {
    const res = await fetch(url, { headers: { 'x-api-key': 'demo-production-key' } });
    await res.body?.cancel();
    return res.status;
  } catch (error) {
    return ((error as Error).cause as NodeJS.ErrnoException)?.code ?? 'failed';
  }
}

describe('web-data-mock --detach, then stop, in separate shells', () => {
  it(
    'the mock outlives the step that started it and ends with the step that stops it',
    async () => {
      const start = step(`node ${BIN} --detach --port 0 --seed 3`);
      expect(start.code, start.stderr).toBe(0);
      const url = start.stdout.trim();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/web-data\/v1$/);
      const port = Number(new URL(url).port);
      started.push(port);
      expect(start.stderr).toContain(`stop --port ${port}`);
      // The first shell has exited: the mock still answers.
      expect(await answers(`${url}/products?limit=1`)).toBe(200);
      const stop = step(`node ${BIN} stop --port ${port}`);
      expect(stop.code, stop.stderr).toBe(0);
      const gone = new RegExp(`port ${port} \\(pid (\\d+)\\) is gone`).exec(stop.stdout);
      expect(gone, stop.stdout).not.toBeNull();
      // stop waited until it was gone: the port and the process.
      expect(await answers(`${url}/products?limit=1`)).toBe('ECONNREFUSED');
      expect(() => process.kill(Number(gone?.[1]), 0)).toThrow(/ESRCH/);
      // Nothing left to stop: exit 1, saying so.
      const again = step(`node ${BIN} stop --port ${port}`);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/no detached mock on port/);
    },
    STEP_MS * 3,
  );

  it(
    'a mock that cannot start: exit 2 with its reason (a taken port names --port 0)',
    () => {
      const first = step(`node ${BIN} --detach --port 0`);
      expect(first.code, first.stderr).toBe(0);
      const port = Number(new URL(first.stdout.trim()).port);
      started.push(port);
      const second = step(`node ${BIN} --detach --port ${port}`);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(/could not start/);
      expect(second.stderr).toMatch(/port \d+ on 127\.0\.0\.1 is taken.*--port 0/);
      const bad = step(`node ${BIN} stop`);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/stop needs --port/);
    },
    STEP_MS * 3,
  );

  it(
    'a stale record never ends an unrelated process that now has its pid',
    async () => {
      const bystander = spawn('sleep', ['30']);
      try {
        const port = 9; // the discard port: nothing of ours listens there
        writeFileSync(
          join(runtime, 'web-data-mock', `${port}.json`),
          JSON.stringify({
            launch: 'x',
            pid: bystander.pid,
            port,
            url: `http://127.0.0.1:${port}/web-data/v1`,
            origin: `http://127.0.0.1:${port}`,
            log: '',
          }),
        );
        const stop = step(`node ${BIN} stop --port ${port}`);
        expect(stop.code, stop.stderr).toBe(0);
        expect(bystander.exitCode).toBeNull();
        expect(bystander.signalCode).toBeNull();
      } finally {
        bystander.kill();
      }
    },
    STEP_MS,
  );

  it('--help says which does what', () => {
    const help = step(`node ${BIN} --help`).stdout;
    expect(help).toMatch(/--detach\s+start in the background/);
    expect(help).toMatch(/stop --port <n>\s+end the mock --detach started/);
    expect(help).toMatch(/by default the mock ends with Ctrl-C, SIGTERM, or the shell/);
  });

  it.runIf(process.platform === 'linux')(
    "tells the launch's own process from another one that has its pid (Linux: its environment)",
    async () => {
      const launched = spawn('sleep', ['30'], { env: { ...process.env, [DETACHED_ENV]: 'abc' } });
      const other = spawn('sleep', ['30']);
      try {
        await Promise.all([launched, other].map((p) => new Promise((r) => p.once('spawn', r))));
        expect(stillTheMock({ pid: launched.pid ?? 0, launch: 'abc' })).toBe(true);
        expect(stillTheMock({ pid: launched.pid ?? 0, launch: 'abd' })).toBe(false);
        expect(stillTheMock({ pid: other.pid ?? 0, launch: 'abc' })).toBe(false);
        // No id in the record, or no such process: cannot be told.
        expect(stillTheMock({ pid: other.pid ?? 0, launch: '' })).toBeUndefined();
        expect(stillTheMock({ pid: 2 ** 22 + 1, launch: 'abc' })).toBeUndefined();
      } finally {
        launched.kill();
        other.kill();
      }
    },
  );
});
