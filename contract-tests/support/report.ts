/**
 * @module support/report
 * The shape of the JSON report (`contract-report.json`): the reporter builds one of these, the
 * CLI reads its verdict, and `runContract()` resolves to it, so a user's own test runner can assert
 * on the same object the command writes.
 */
import type { CoverageCell } from './coverage.js';
import type { Finding } from './findings.js';
import type { TargetKind } from './options.js';

export interface ContractReport {
  /** The base URL the suite checked (the suite's own mock's when none was given). */
  target: string;
  kind: TargetKind;
  release: string;
  seed: number;
  strict: boolean;
  durationMs: number;
  requests: number;
  /** Every test passed, no failure finding, and at least one real request succeeded. */
  passed: boolean;
  counts: {
    tests: number;
    failedTests: number;
    failures: number;
    warnings: number;
    notRun: number;
  };
  /** The observed profile of this run (profile.json), relative to this report's folder. */
  profile: string;
  /** Against `--baseline`: what the service did then against now (undefined without a baseline). */
  drift: { profile: string | null; failures: number; warnings: number } | undefined;
  /** Against `--baseline`: how many findings are new, known, gone. */
  baseline: { file: string | undefined; new: number; known: number; gone: number } | undefined;
  tests: { name: string; file: string; state: string }[];
  findings: Finding[];
  gone: Finding[] | undefined;
  coverage: CoverageCell[];
}
