/**
 * @module meta/vary.test
 * The mock under legal variation still keeps the contract, as the suite judges it: for seeds 1, 2
 * and 3, the compiled mock is started with `--vary <seed>` (every operation:
 * `--release unreleased`) and the compiled `web-data-contract` is run against it as a user runs it
 * against any base URL, with the demo keys. The default mode must pass (the undeclared fields and
 * absent optional fields variation adds are warnings there), in the full mode any web-data mock
 * gets (the report's kind is `mock`). `--strict` holds the target to "no
 * field the document does not declare": it must fail, on undeclared fields and on nothing else.
 * Both commands are the compiled package's (`dist/`, which `npm test` builds first), as
 * `release-matrix` runs them.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledMock, DEMO_KEYS, runNode, type Ran } from './harness.js';
import type { ContractReport } from '../../src/suite/run.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'web-data-contract.js');
/** One whole suite run against the mock (seconds; generous for a loaded machine). */
const RUN_MS = 180_000;
/** Failures named in an assertion message: enough to see the cause, not the whole report. */
const SHOWN = 12;
const dir = mkdtempSync(join(tmpdir(), 'vary-suite-'));
const mocks: ChildProcess[] = [];
afterAll(() => {
  for (const mock of mocks) mock.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** The compiled mock with `--vary <seed>` on a free port; resolves to the base URL its banner names. */
function variedMock(seed: number): Promise<string> {
  return compiledMock(['--vary', String(seed), '--release', 'unreleased'], mocks);
}

/** The compiled suite against a base URL, in an environment without the caller's suite or vitest variables. */
async function suite(
  baseUrl: string,
  name: string,
  flags: string[] = [],
): Promise<Ran & { report: () => ContractReport }> {
  const reports = join(dir, name);
  const ran = await runNode(
    [BIN, baseUrl, '--release', 'unreleased', '--report-dir', reports, ...flags],
    DEMO_KEYS,
  );
  const report = () =>
    JSON.parse(readFileSync(join(reports, 'contract-report.json'), 'utf8')) as ContractReport;
  return { ...ran, report };
}

/** The failures of a run, one line each; the end of the console when it wrote no report. */
function failuresOf(run: { output: string; report: () => ContractReport }): string {
  let report: ContractReport;
  try {
    report = run.report();
  } catch {
    return run.output.slice(-3000);
  }
  const failures = report.findings.filter((f) => f.severity === 'failure');
  const lines = failures.slice(0, SHOWN).map((f) => `${f.rule} in ${f.operationId}: ${f.message}`);
  const more = failures.length > SHOWN ? [`... and ${failures.length - SHOWN} more`] : [];
  return [`${failures.length} failure(s)`, ...lines, ...more].join('\n');
}

describe('the contract suite against the mock with --vary', () => {
  for (const seed of [1, 2, 3])
    it(
      `passes in the default mode with --vary ${seed}`,
      async () => {
        const run = await suite(await variedMock(seed), `seed-${seed}`);
        expect(run.code, failuresOf(run)).toBe(0);
        const report = run.report();
        expect(report.passed).toBe(true);
        // Found as a web-data mock by its /examples.json: every check of the bundled mock ran.
        expect(report.kind).toBe('mock');
        // What variation adds is seen, as warnings: undeclared fields.
        expect(report.findings.some((f) => f.rule === 'undeclared-field')).toBe(true);
      },
      RUN_MS,
    );

  it(
    'fails with --strict, on undeclared fields only',
    async () => {
      const run = await suite(await variedMock(1), 'strict', ['--strict']);
      expect(run.code).toBe(1);
      const failures = run.report().findings.filter((f) => f.severity === 'failure');
      expect(failures.length).toBeGreaterThan(0);
      expect(failures.filter((f) => f.rule !== 'undeclared-field').map((f) => f.message)).toEqual(
        [],
      );
    },
    RUN_MS,
  );
});
