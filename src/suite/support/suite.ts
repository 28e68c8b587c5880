/**
 * @module support/suite
 * The glue between vitest and the check library: one context per worker, and `runCheck`, which
 * runs a check, attaches its findings and exercised statuses to the test (for the reporter) and
 * fails the test with every failure spelled out.
 */
import { inject, type TestContext } from 'vitest';
import {
  createContext,
  outcomeOf,
  type Check,
  type CheckContext,
  type CheckOutcome,
  type Scope,
} from './context.js';
import { redactSecrets } from '../../redaction.js';
import { failuresOf, formatFinding, type Finding } from './findings.js';
import { readOptions } from './options.js';
import type { ExerciseNote } from './check.js';
import { mergeInto, type Profile } from '../../evidence/index.js';
import { takeObserved } from './evidence.js';

export interface ContractMeta {
  findings: Finding[];
  /** Answers seen (operation, status): what the coverage table counts. */
  notes: ExerciseNote[];
  /** Requests sent, answered or not (a target that never answers in time leaves no note). */
  sent: number;
  /** What the target was seen to do during this test (the reporter merges them into profile.json). */
  profile?: Profile;
}

declare module '@vitest/runner' {
  interface TaskMeta {
    contract?: ContractMeta;
  }
}

let shared: Promise<CheckContext> | undefined;

/** The context for this worker, pointed at the target global setup provided. */
export function suiteContext(): Promise<CheckContext> {
  // The target's kind as global setup found it (a web-data mock at a base URL checks as the mock).
  const env = { ...process.env, CONTRACT_TARGET_KIND: inject('contractTargetKind') };
  shared ??= createContext({ ...readOptions(env), baseUrl: inject('contractBaseUrl') });
  return shared;
}

/** What a test leaves for the reporter; what it observed also joins the run's whole profile. */
function leave(
  test: TestContext,
  ctx: CheckContext,
  before: number,
  sentBefore: number,
  findings: Finding[],
): void {
  const profile = takeObserved(ctx);
  mergeInto(ctx.observedRun, profile);
  test.task.meta.contract = {
    findings,
    notes: ctx.notes.slice(before),
    sent: ctx.client.sent - sentBefore,
    profile,
  };
}

/**
 * Runs one check and turns its failures into a test failure; warnings only go to the report. A
 * check that does not apply to this target skips the test with its reason (vitest, JUnit and the
 * summary show it skipped, not passed).
 */
export async function runCheck(test: TestContext, check: Check, scope?: Scope): Promise<Finding[]> {
  const ctx = await suiteContext();
  const before = ctx.notes.length;
  const sentBefore = ctx.client.sent;
  let outcome: CheckOutcome;
  try {
    outcome = await outcomeOf(check, ctx, scope);
  } catch (error) {
    // A check that breaks by throwing still reports (the reporter lists the failed test); never with a key in it.
    leave(test, ctx, before, sentBefore, []);
    const message = redactSecrets(
      error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      ctx.secrets,
    );
    throw new Error(`the check itself failed: ${message}`);
  }
  if ('doesNotApply' in outcome) {
    leave(test, ctx, before, sentBefore, []);
    // JUnit's <skipped/> carries no reason; the annotation puts it among the test's properties.
    await test.annotate(outcome.doesNotApply, 'skipped');
    test.skip(outcome.doesNotApply);
  }
  const { findings } = outcome;
  leave(test, ctx, before, sentBefore, findings);
  const failures = failuresOf(findings);
  if (failures.length > 0) {
    throw new Error(
      `${failures.length} contract failure(s):\n\n${failures.map(formatFinding).join('\n\n')}`,
    );
  }
  return findings;
}
