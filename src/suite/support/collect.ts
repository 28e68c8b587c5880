/**
 * @module support/collect
 * The first step of the reports: what a vitest run left behind, gathered into one plain value.
 * Every test's findings, exercised statuses, requests and observed profile (from its meta), its
 * state (a skipped test with its reason), and failures no test carries: a test that failed by
 * throwing, a test file that did not load, a hook that threw, an unhandled error.
 */
import type { SerializedError, TestCase, TestModule } from 'vitest/node';
import { emptyProfile, mergeInto } from '../../evidence/index.js';
import type { CollectedRun } from './collected.js';
import type { Finding } from './findings.js';
import type { ContractMeta } from './suite.js';

export type { CollectedRun, TestRow } from './collected.js';

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

/** Gathers a finished run. `target` names the base URL in findings no request carries. */
export function collectRun(
  modules: ReadonlyArray<TestModule>,
  unhandled: ReadonlyArray<SerializedError>,
  target: string,
): CollectedRun {
  const run: CollectedRun = {
    tests: [],
    findings: [],
    notes: [],
    requests: 0,
    observed: emptyProfile(),
  };
  const metas: (ContractMeta | undefined)[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const meta = (test.meta() as { contract?: ContractMeta }).contract;
      metas.push(meta);
      run.findings.push(...(meta?.findings ?? []));
      const thrown = thrownFailure(test, target);
      if (thrown) run.findings.push(thrown);
      run.notes.push(...(meta?.notes ?? []));
      if (meta?.profile) mergeInto(run.observed, meta.profile);
      const result = test.result();
      run.tests.push({
        name: test.fullName,
        file: module.moduleId,
        state: result.state,
        ...(result.state === 'skipped' && result.note ? { skipped: result.note } : {}),
      });
    }
  }
  run.findings.push(...runErrors(modules, unhandled, target));
  run.requests = requestsSent(metas);
  return run;
}
