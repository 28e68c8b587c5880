/**
 * @module scopes/proof/proof.test
 * Issue 38's proof of scopes: eight test files in parallel threads against one mock, each
 * stubbing the same product its own way, editing the same record, arming a fault on the same
 * operation and advancing its clock, 20 runs in a row, each file seeing only its own
 * (proof-file.ts). Run by a child vitest with its own config: (a) against one mock on a port,
 * (b) against two instances sharing one Redis, (c) with scopes off, which must fail.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../package-root.js';
import { redisAvailable } from '../../testing/redis-server.js';

const RUNS_TIMEOUT_MS = 240_000;
const out = mkdtempSync(join(tmpdir(), 'scope-proof-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Outcome {
  code: number | null;
  passed: number;
  failed: number;
  ms: number;
  output: string;
}

/** The eight files run once by a child vitest with `env`; its JSON report read back. */
function runProof(name: string, env: Record<string, string>): Promise<Outcome> {
  const report = join(out, `${name}.json`);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      packagePath('node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--config',
      'src/testing/scope-proof/vitest.config.ts',
      '--reporter=json',
      `--outputFile=${report}`,
    ],
    { cwd: packagePath(), env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const ms = Math.round(performance.now() - started);
      let counts = { numPassedTests: 0, numFailedTests: 0 };
      try {
        counts = JSON.parse(readFileSync(report, 'utf8')) as typeof counts;
      } catch {
        // no report: the run itself failed; `output` says why
      }
      console.log(
        `[scope proof] ${name}: exit ${code}, ${counts.numPassedTests} passed, ${counts.numFailedTests} failed, ${ms} ms`,
      );
      resolve({ code, passed: counts.numPassedTests, failed: counts.numFailedTests, ms, output });
    }),
  );
}

const EVERY_RUN = 8 * 20;

describe('eight files in parallel on one shared mock', () => {
  it(
    '(a) each sees only its own, with a scope each, on a port',
    async () => {
      const outcome = await runProof('memory', {});
      expect(outcome, outcome.output.slice(-4000)).toMatchObject({
        code: 0,
        passed: EVERY_RUN,
        failed: 0,
      });
    },
    RUNS_TIMEOUT_MS,
  );

  it.skipIf(!redisAvailable())(
    '(b) each sees only its own across two instances sharing one Redis',
    async () => {
      const outcome = await runProof('redis', { SCOPE_PROOF_STATE: 'redis' });
      expect(outcome, outcome.output.slice(-4000)).toMatchObject({
        code: 0,
        passed: EVERY_RUN,
        failed: 0,
      });
    },
    RUNS_TIMEOUT_MS,
  );

  it(
    '(c) with scopes off (the mock own controls and the demo key), the files see each other and fail',
    async () => {
      const outcome = await runProof('off', { SCOPE_PROOF_OFF: '1' });
      expect(outcome.code).not.toBe(0);
      expect(outcome.failed, outcome.output.slice(-4000)).toBeGreaterThan(0);
    },
    RUNS_TIMEOUT_MS,
  );
});
