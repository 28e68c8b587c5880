/**
 * @module support/reporter
 * Collects what every contract test attached (findings, exercised statuses) and writes the
 * machine-readable JSON report, the Markdown summary (also appended to `$GITHUB_STEP_SUMMARY`)
 * and prints the coverage table. JUnit XML comes from vitest's own reporter beside this one.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { loadContract } from '../../src/contract/index.js';
import { coverageCells, coverageMarkdown } from './coverage.js';
import { formatFinding, redact, type Finding } from './findings.js';
import { readOptions, secretsOf } from './options.js';
import type { ExerciseNote } from './probe.js';
import type { ContractMeta } from './suite.js';

/** Failures spelled out in the Markdown summary; the JSON report has all of them. */
const SUMMARY_FAILURES = 20;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export default class ContractReporter implements Reporter {
  #started = Date.now();

  onTestRunStart(): void {
    this.#started = Date.now();
  }

  async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    const options = readOptions();
    const findings: Finding[] = [];
    const notes: ExerciseNote[] = [];
    const tests: { name: string; file: string; state: string }[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const meta = test.meta() as { contract?: ContractMeta };
        findings.push(...(meta.contract?.findings ?? []));
        notes.push(...(meta.contract?.notes ?? []));
        tests.push({ name: test.fullName, file: module.moduleId, state: test.result().state });
      }
    }
    if (tests.length === 0) return;
    const contract = await loadContract({ release: options.release });
    const cells = coverageCells(contract, notes, options);
    const failures = findings.filter((f) => f.severity === 'failure');
    const warnings = findings.filter((f) => f.severity === 'warning');
    const failedTests = tests.filter((t) => t.state === 'failed');
    const durationMs = Date.now() - this.#started;
    const report = {
      target: options.baseUrl ?? process.env.CONTRACT_RESOLVED_BASE_URL ?? '(the suite’s own mock)',
      kind: options.target,
      release: contract.release,
      seed: options.seed,
      strict: options.strict,
      durationMs,
      requests: notes.length,
      passed: failedTests.length === 0,
      counts: { tests: tests.length, failedTests: failedTests.length, failures: failures.length, warnings: warnings.length },
      tests,
      findings,
      coverage: cells,
    };
    const secrets = secretsOf(options);
    write(options.jsonFile, redact(JSON.stringify(report, null, 2), secrets));

    const byRule = new Map<string, number>();
    for (const w of warnings) byRule.set(w.rule, (byRule.get(w.rule) ?? 0) + 1);
    const md = [
      `## Contract suite: ${report.passed ? 'passed' : 'FAILED'}`,
      '',
      `Target ${report.target} (${report.kind}), release ${report.release}, seed ${report.seed}, ${options.strict ? 'strict' : 'default'} policy; ${tests.length} tests, ${report.requests} requests, ${(durationMs / 1000).toFixed(1)} s.`,
      '',
      `Failures: ${failures.length}. Warnings: ${warnings.length}${byRule.size ? ` (${[...byRule].map(([r, n]) => `${r} ${n}`).join(', ')})` : ''}.`,
      '',
      ...(failures.length ? ['### Failures', '', '```', ...failures.slice(0, SUMMARY_FAILURES).map((f) => `${formatFinding(f)}\n`), failures.length > SUMMARY_FAILURES ? `... and ${failures.length - SUMMARY_FAILURES} more in ${options.jsonFile}` : '', '```', ''] : []),
      ...(warnings.length ? ['### Warnings', '', ...warnings.slice(0, SUMMARY_FAILURES).map((w) => `- ${w.rule} in ${w.operationId}: ${w.message}${w.pointer ? ` (${w.pointer}, sample ${w.actual ?? ''})` : ''}`), ''] : []),
      '### Coverage',
      '',
      coverageMarkdown(cells),
      '',
    ].join('\n');
    const summary = redact(md, secrets);
    write(options.summaryFile, summary);
    if (options.githubStepSummary) appendFileSync(options.githubStepSummary, `${summary}\n`);
    process.stdout.write(`\n${summary}\nReports: ${options.jsonFile}, ${options.summaryFile}, ${options.junitFile}\n`);
  }
}
