/**
 * @module support/report
 * The JSON report (`contract-report.json`): its shape, and the one pure function that builds it
 * from a collected run. The reporter writes it and renders every other output from it, the CLI
 * reads its verdict, and `runContract()` resolves to it, so a user's own test runner can assert on
 * the same object the command writes.
 */
import type { ContractReport } from '../../api/types.js';
import { truncate, type Contract } from '../../contract/index.js';
import { compareWithBaseline, type BaselineRun } from './baseline.js';
import type { CollectedRun } from './collected.js';
import { coverageCells } from './coverage.js';
import { mapStrings, type Finding } from './findings.js';
import type { ContractOptions } from './options.js';
import { NOT_RUN } from './probe.js';
import { releaseHint, type ReleaseShapes } from './release-hint.js';
import { rollUp } from './rollup.js';

// Public: the report's shape is defined in api/types.ts.
export type { ContractReport };

/** Longest string kept in a finding of the report (a field name, a sample, a message). */
export const MAX_FINDING_TEXT = 2000;

/** A finding with every string field cut to MAX_FINDING_TEXT characters. */
export function capFinding(f: Finding): Finding {
  return mapStrings(f, (s) => truncate(s, MAX_FINDING_TEXT, `... (${s.length} chars)`));
}

/** What the report is built from, besides the run itself. */
export interface ReportInput {
  run: CollectedRun;
  options: ContractOptions;
  /** The base URL checked. */
  target: string;
  /** The document at the release checked. */
  contract: Contract;
  /** The baseline run (`--baseline`), when one was given. */
  previous: BaselineRun | undefined;
  /** The older releases' shapes, for the release hint. */
  shapes: ReleaseShapes | undefined;
  durationMs: number;
  /** Where profile.json is, relative to the report's folder. */
  profile: string;
}

/** Builds the report: baseline marks, counts, verdict, causes and the release hint. Pure. */
export function buildReport(input: ReportInput): ContractReport {
  const { run, options, previous } = input;
  let findings = run.findings.map(capFinding);
  const baseline = previous?.findings
    ? compareWithBaseline(findings, previous.findings)
    : undefined;
  if (baseline) findings = baseline.findings;
  const failures = findings.filter((f) => f.severity === 'failure');
  const warnings = findings.filter((f) => f.severity === 'warning');
  const drift = findings.filter((f) => f.change);
  const failedTests = run.tests.filter((t) => t.state === 'failed').length;
  const succeeded = new Set(
    run.notes
      .filter((n) => n.status >= 200 && n.status < 300 && !n.preferred)
      .map((n) => n.operationId),
  );
  const tested = succeeded.size > 0;
  const passed = failedTests === 0 && failures.length === 0 && tested;
  return {
    target: input.target,
    kind: options.target,
    release: input.contract.release,
    seed: options.seed,
    strict: options.strict,
    durationMs: input.durationMs,
    requests: run.requests,
    passed,
    tested,
    counts: {
      tests: run.tests.length,
      failedTests,
      skipped: run.tests.filter((t) => t.state === 'skipped').length,
      failures: failures.length,
      warnings: warnings.length,
      notRun: warnings.filter((f) => f.rule === NOT_RUN).length,
    },
    profile: input.profile,
    drift: previous && {
      profile: previous.profileFrom ?? null,
      failures: drift.filter((f) => f.severity === 'failure').length,
      warnings: drift.filter((f) => f.severity === 'warning').length,
    },
    baseline: baseline && {
      file: options.baselineFile,
      new: findings.filter((f) => f.baseline === 'new').length,
      known: findings.filter((f) => f.baseline === 'known').length,
      gone: baseline.gone.length,
    },
    causes: rollUp(findings),
    releaseHint:
      !passed && input.shapes ? releaseHint(findings, succeeded, input.shapes) : undefined,
    tests: run.tests,
    findings,
    gone: baseline?.gone.map(capFinding),
    coverage: coverageCells(input.contract, run.notes, options),
  };
}
