/**
 * @module support/reporter
 * The suite's vitest reporter: collect what the tests left (collect.ts) -> build the JSON report
 * (report.ts, pure) -> render and write each output from it: contract-report.json, profile.json,
 * the Markdown summary (summary.ts; also appended to `$GITHUB_STEP_SUMMARY`) and the console (the
 * summary, or under `CONTRACT_CONSOLE=verdict` a passing run's one verdict line).
 * JUnit XML comes from vitest's own reporter beside this one. Every form of every key is redacted
 * from the report before anything is rendered from it. A run whose report is not green fails
 * (exit status 1) however it was started, so a bare vitest run and the command agree.
 */
import { dirname, relative } from 'node:path';
import type { Reporter, SerializedError, TestModule } from 'vitest/node';
import { loadContract } from '../../contract/index.js';
import { profileText } from '../../evidence/index.js';
import { redactSecrets, redactStringValues } from '../../redaction.js';
import { baselineOrFailure } from './baseline.js';
import { collectRun } from './collect.js';
import { readOptions, secretsOf } from './options.js';
import { writeReportFile, writeSummary } from './outputs.js';
import { shapesOf } from './release-hint.js';
import { buildReport } from './report.js';
import { renderSummary, verdictLine } from './summary.js';

export default class ContractReporter implements Reporter {
  #started = Date.now();

  onTestRunStart(): void {
    this.#started = Date.now();
  }

  /**
   * Never throws: vitest answers a reporter that throws with its own stack trace. A report that
   * cannot be written (a directory that cannot be created, a document that does not load) is one
   * line on stderr and a failed run instead.
   */
  async onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError> = [],
  ): Promise<void> {
    try {
      await this.#report(modules, unhandledErrors);
    } catch (error) {
      process.exitCode = 1;
      let secrets: string[] = [];
      try {
        secrets = secretsOf(readOptions());
      } catch {
        // the options themselves are what broke; nothing more to redact than the message says
      }
      process.stderr.write(
        `contract reporter: the reports could not be written: ${redactSecrets(error instanceof Error ? error.message : String(error), secrets)}\n`,
      );
    }
  }

  async #report(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): Promise<void> {
    const options = readOptions();
    const target =
      options.baseUrl ?? process.env.CONTRACT_RESOLVED_BASE_URL ?? '(the suite’s own mock)';
    const run = collectRun(modules, unhandledErrors, target);
    if (run.tests.length === 0 && run.findings.length === 0) return;
    const baseline = options.baselineFile
      ? baselineOrFailure(options.baselineFile, target)
      : undefined;
    // Said once: by the drift test when it ran, else here.
    if (baseline && 'rule' in baseline && !run.findings.some((f) => f.rule === baseline.rule))
      run.findings.push(baseline);
    const contract = await loadContract({ release: options.release });
    const built = buildReport({
      run,
      options,
      target,
      contract,
      previous: baseline && !('rule' in baseline) ? baseline : undefined,
      shapes: await shapesOf(contract),
      durationMs: Date.now() - this.#started,
      profile: relative(dirname(options.jsonFile), options.profileFile),
    });
    const secrets = secretsOf(options);
    // Redacted value by value before anything is serialised or rendered: an escaped key would no
    // longer be found, and redacting the serialised text would let a short key rewrite the report's
    // own names. Every name of the report is the suite's own (server text arrives only as values).
    const report = redactStringValues(built, secrets);
    writeReportFile(options.jsonFile, JSON.stringify(report, null, 2));
    writeReportFile(options.profileFile, profileText(run.observed, secrets));
    const summary = redactSecrets(renderSummary(report, options.jsonFile), secrets);
    writeSummary(options, summary);
    // Asked for the verdict only (`npm test`): a passing run says it in one line; a failing one
    // prints everything, as it would have.
    if (options.console === 'verdict' && report.passed)
      process.stdout.write(`${redactSecrets(verdictLine(report, options.summaryFile), secrets)}\n`);
    else
      process.stdout.write(
        `\n${summary}\nReports: ${options.jsonFile}, ${options.summaryFile}, ${options.junitFile}\n`,
      );
    if (!report.passed) process.exitCode = 1;
  }
}
