/**
 * @module meta/release-matrix.test
 * Every release the mock serves passes the suite at that release: for each release of the
 * document's changelog (`info.x-changelog`) but `unreleased` (the suite's default run, `npm run
 * contract`), `web-data-contract --release X` is run as a user runs it (the compiled command,
 * which starts its own mock at release X) with `--strict` (a field the release does not declare
 * fails), and must exit 0 with no declared field left out. It runs the compiled package (`dist/`,
 * which `npm test` builds first), as `cli.test.ts` does. A new release, field, link or sort key
 * that breaks an older release fails here, naming the failures.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode, type Ran } from './harness.js';
import { loadContract, UNRELEASED } from '../../src/contract/index.js';
import type { ContractReport } from '../../src/suite/run.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'web-data-contract.js');
/** One whole suite run against the mock (seconds; generous for a loaded machine). */
const RUN_MS = 180_000;
/** Failures named in an assertion message: enough to see the cause, not the whole report. */
const SHOWN = 12;

const { releases } = await loadContract({ release: UNRELEASED });
const dir = mkdtempSync(join(tmpdir(), 'release-matrix-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command at one release, in an environment without the caller's suite or vitest variables. */
async function runAt(release: string): Promise<Ran & { reports: string }> {
  const reports = join(dir, release);
  const ran = await runNode([BIN, '--release', release, '--strict', '--report-dir', reports]);
  return { ...ran, reports };
}

/** The failures of a run, one line each; the end of the console when it wrote no report. */
function whyNot(reports: string, output: string): string {
  let report: ContractReport;
  try {
    report = JSON.parse(
      readFileSync(join(reports, 'contract-report.json'), 'utf8'),
    ) as ContractReport;
  } catch {
    return output.slice(-3000);
  }
  const failures = report.findings.filter((f) => f.severity === 'failure');
  const lines = failures.slice(0, SHOWN).map((f) => `${f.rule} in ${f.operationId}: ${f.message}`);
  const more = failures.length > SHOWN ? [`... and ${failures.length - SHOWN} more`] : [];
  return [`release ${report.release}: ${failures.length} failure(s)`, ...lines, ...more].join('\n');
}

describe('release matrix: the mock at each release passes the suite at that release', () => {
  it('the changelog names several releases', () => {
    expect(releases.length).toBeGreaterThan(1);
  });

  // `unreleased` is the suite's default run, `npm run contract`, which `npm test` makes anyway.
  for (const release of releases.filter((r) => r !== UNRELEASED)) {
    it(
      `release ${release}`,
      async () => {
        const run = await runAt(release);
        expect(run.code, whyNot(run.reports, run.output)).toBe(0);
        const report = JSON.parse(
          readFileSync(join(run.reports, 'contract-report.json'), 'utf8'),
        ) as ContractReport;
        expect(report.release).toBe(release);
        expect(report.passed).toBe(true);
        // The mock sends every field its document declares (DECISIONS 10): a declared field it
        // leaves out at a release is one that release's document should not declare.
        const absent = report.findings.filter((f) => f.rule === 'absent-field');
        expect(absent.map((f) => `${f.operationId}: ${f.message}`)).toEqual([]);
      },
      RUN_MS,
    );
  }
});
