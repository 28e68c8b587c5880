/**
 * @module support/reporter
 * Collects what every contract test attached (findings, exercised statuses) and writes the
 * machine-readable JSON report, the Markdown summary (also appended to `$GITHUB_STEP_SUMMARY`)
 * and prints it. JUnit XML comes from vitest's own reporter beside this one. A test that failed by
 * throwing is a failure in both reports, with its message, and so is a test file that failed to
 * load, a hook that threw or an unhandled error; checks that could not run are listed
 * beside the coverage table; with a baseline, the summary leads with what is new. Every form of
 * every key is redacted from all of it.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node';
import { loadContract } from '../../src/contract/index.js';
import { compareProfiles } from '../../src/evidence/index.js';
import { emptyProfile, mergeInto, serializeProfile } from '../../src/evidence/index.js';
import { compareWithBaseline, readBaselineRun } from './baseline.js';
import { driftFindings } from './evidence.js';
import { coverageCells, coverageMarkdown } from './coverage.js';
import { redactSecrets } from '../../src/redaction.js';
import { formatFinding, type Finding } from './findings.js';
import { readOptions, secretsOf } from './options.js';
import type { ExerciseNote } from './check.js';
import { NOT_RUN } from './probe.js';
import type { ContractReport } from './report.js';
import type { ContractMeta } from './suite.js';

/** Findings spelled out per section of the Markdown summary; the JSON report has all of them. */
const SUMMARY_ITEMS = 20;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A failed test whose failure no finding carries (it threw): a finding of its own, with its message. */
export function thrownFailure(test: TestCase, target: string): Finding | undefined {
  const result = test.result();
  if (result.state !== 'failed') return undefined;
  const meta = test.meta() as { contract?: ContractMeta };
  if (meta.contract?.findings.some((f) => f.severity === 'failure')) return undefined;
  const message =
    (result.errors ?? []).map((e) => e.message).join('\n') || 'the test failed without a message';
  return {
    severity: 'failure',
    rule: 'check-error',
    operationId: test.fullName,
    method: '-',
    url: target,
    expected: 'the check to run to its end',
    message,
  };
}

/**
 * Failures no test carries: a test file that broke while loading, a `describe` whose hook threw (its
 * tests are then skipped, not failed), an error nothing caught during the run. Each is a failure
 * finding with its message, so a run vitest calls failed never reads "Failures: 0".
 */
export function runErrors(
  modules: ReadonlyArray<Pick<TestModule, 'moduleId' | 'errors' | 'children'>>,
  unhandled: ReadonlyArray<SerializedError>,
  target: string,
): Finding[] {
  const finding = (
    where: string,
    errors: readonly SerializedError[],
    expected: string,
  ): Finding => ({
    severity: 'failure',
    rule: 'check-error',
    operationId: where,
    method: '-',
    url: target,
    expected,
    message:
      errors
        .map((e) => `${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${e.message}`)
        .join('\n') || 'failed without a message',
  });
  const out: Finding[] = [];
  for (const module of modules) {
    const own = module.errors();
    if (own.length > 0) out.push(finding(module.moduleId, own, 'the test file to load and run'));
    for (const suite of module.children.allSuites()) {
      const errors = suite.errors();
      if (errors.length > 0)
        out.push(
          finding(
            `${suite.fullName} (${module.moduleId})`,
            errors,
            'the tests of this group to run',
          ),
        );
    }
  }
  if (unhandled.length > 0)
    out.push(finding('(the run)', unhandled, 'no error outside the checks'));
  return out;
}

/**
 * Requests the run sent: each test's count of requests sent, answered or not. Counting answers
 * (notes) said "0 requests" for a run that sent 43 to a target too slow to answer any in time.
 */
export function requestsSent(metas: ReadonlyArray<ContractMeta | undefined>): number {
  return metas.reduce((sum, meta) => sum + (meta?.sent ?? meta?.notes.length ?? 0), 0);
}

function bullet(f: Finding): string {
  return `- ${f.severity} ${f.rule} in ${f.operationId}: ${f.message}${f.pointer ? ` (${f.pointer}${f.actual ? `, sample ${f.actual}` : ''})` : ''}${f.assumption ? `; assumed: ${f.assumption}` : ''}`;
}

/** A drift finding: what the service did then and now, and how to see it. */
function driftBullet(f: Finding): string {
  return `- ${f.severity} ${f.rule} in ${f.operationId}: ${f.message} (${f.pointer}); then: ${f.expected.replace(/^as then: /, '')}; now: ${f.actual}${f.curl ? `; repro: \`${f.curl}\`` : ''}`;
}

function section(
  title: string,
  items: readonly Finding[],
  line: (f: Finding) => string,
  jsonFile: string,
): string[] {
  if (items.length === 0) return [];
  const more =
    items.length > SUMMARY_ITEMS
      ? [`... and ${items.length - SUMMARY_ITEMS} more in ${jsonFile}`]
      : [];
  return [`### ${title}`, '', ...items.slice(0, SUMMARY_ITEMS).map(line), ...more, ''];
}

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
    let findings: Finding[] = [];
    const notes: ExerciseNote[] = [];
    const observed = emptyProfile();
    const tests: { name: string; file: string; state: string }[] = [];
    const metas: (ContractMeta | undefined)[] = [];
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const meta = test.meta() as { contract?: ContractMeta };
        findings.push(...(meta.contract?.findings ?? []));
        metas.push(meta.contract);
        const thrown = thrownFailure(test, target);
        if (thrown) findings.push(thrown);
        notes.push(...(meta.contract?.notes ?? []));
        if (meta.contract?.profile) mergeInto(observed, meta.contract.profile);
        tests.push({ name: test.fullName, file: module.moduleId, state: test.result().state });
      }
    }
    const broken = runErrors(modules, unhandledErrors, target);
    findings.push(...broken);
    if (tests.length === 0 && broken.length === 0) return;
    const contract = await loadContract({ release: options.release });
    const cells = coverageCells(contract, notes, options);
    const previous = options.baselineFile ? readBaselineRun(options.baselineFile) : undefined;
    const baseline = previous?.findings
      ? compareWithBaseline(findings, previous.findings)
      : undefined;
    if (baseline) findings = baseline.findings;
    // What the service did then against tonight: failures even where the document is silent.
    const drift = previous?.profile
      ? driftFindings(compareProfiles(previous.profile, observed, options.drift), target)
      : [];
    findings.push(...drift);
    const failures = findings.filter((f) => f.severity === 'failure');
    const warnings = findings.filter((f) => f.severity === 'warning');
    const notRun = warnings.filter((f) => f.rule === NOT_RUN);
    const failedTests = tests.filter((t) => t.state === 'failed');
    const tested = notes.some((n) => n.status >= 200 && n.status < 300 && !n.preferred);
    const passed = failedTests.length === 0 && failures.length === 0 && tested;
    const durationMs = Date.now() - this.#started;
    const report: ContractReport = {
      target,
      kind: options.target,
      release: contract.release,
      seed: options.seed,
      strict: options.strict,
      durationMs,
      requests: requestsSent(metas),
      passed,
      counts: {
        tests: tests.length,
        failedTests: failedTests.length,
        failures: failures.length,
        warnings: warnings.length,
        notRun: notRun.length,
      },
      profile: relative(dirname(options.jsonFile), options.profileFile),
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
      tests,
      findings,
      gone: baseline?.gone,
      coverage: cells,
    };
    const secrets = secretsOf(options);
    write(options.jsonFile, redactSecrets(JSON.stringify(report, null, 2), secrets));
    write(options.profileFile, redactSecrets(serializeProfile(observed), secrets));

    const byRule = new Map<string, number>();
    for (const w of warnings) byRule.set(w.rule, (byRule.get(w.rule) ?? 0) + 1);
    const headline = !tested
      ? 'FAILED: nothing was tested (no request succeeded)'
      : !passed
        ? 'FAILED'
        : notRun.length > 0
          ? `passed, but ${notRun.length} check(s) could not run`
          : 'passed';
    const fresh = findings.filter((f) => f.baseline === 'new' && !drift.includes(f));
    const md = [
      `## Contract suite: ${headline}`,
      '',
      ...(previous
        ? previous.profile
          ? [
              `Against what the service did then (${previous.profileFrom}): **${report.drift!.failures} change(s) that break clients**, ${report.drift!.warnings} warning(s).`,
              '',
              ...section('Changed since the baseline', drift, driftBullet, options.jsonFile),
            ]
          : [
              `The baseline ${options.baselineFile} has no profile beside it: what the service did was not compared.`,
              '',
            ]
        : []),
      ...(baseline
        ? [
            `Against the baseline ${options.baselineFile}: **${fresh.filter((f) => f.severity === 'failure').length} new failure(s)**, ${fresh.filter((f) => f.severity === 'warning').length} new warning(s), ${findings.filter((f) => f.baseline === 'known').length} known, ${baseline.gone.length} gone.`,
            '',
          ]
        : []),
      ...(baseline ? section('New since the baseline', fresh, bullet, options.jsonFile) : []),
      `Target ${report.target} (${report.kind}), release ${report.release}, seed ${report.seed}, ${options.strict ? 'strict' : 'default'} policy; ${tests.length} tests, ${report.requests} requests, ${(durationMs / 1000).toFixed(1)} s.`,
      '',
      `Failures: ${failures.length} (failed tests: ${failedTests.length}). Warnings: ${warnings.length}${byRule.size ? ` (${[...byRule].map(([r, n]) => `${r} ${n}`).join(', ')})` : ''}.`,
      '',
      ...(failures.length
        ? [
            '### Failures',
            '',
            '```',
            ...failures.slice(0, SUMMARY_ITEMS).map((f) => `${formatFinding(f)}\n`),
            failures.length > SUMMARY_ITEMS
              ? `... and ${failures.length - SUMMARY_ITEMS} more in ${options.jsonFile}`
              : '',
            '```',
            '',
          ]
        : []),
      ...section(
        'Warnings',
        warnings.filter((w) => w.rule !== NOT_RUN),
        bullet,
        options.jsonFile,
      ),
      ...(baseline
        ? section('Gone since the baseline', baseline.gone, bullet, options.jsonFile)
        : []),
      '### Coverage',
      '',
      coverageMarkdown(cells),
      '',
      ...(notRun.length
        ? [
            'Checks that could not run:',
            '',
            '| operation | what | why |',
            '|---|---|---|',
            ...notRun.map(
              (f) =>
                `| ${f.operationId} | ${f.expected.replace(/ checked$/, '')} | ${f.message.replace(/^.*? not checked: /, '')} |`,
            ),
            '',
          ]
        : []),
    ].join('\n');
    const summary = redactSecrets(md, secrets);
    write(options.summaryFile, summary);
    if (options.githubStepSummary) appendFileSync(options.githubStepSummary, `${summary}\n`);
    process.stdout.write(
      `\n${summary}\nReports: ${options.jsonFile}, ${options.summaryFile}, ${options.junitFile}\n`,
    );
  }
}
