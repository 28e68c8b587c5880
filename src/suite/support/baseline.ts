/**
 * @module support/baseline
 * Nightly runs compare with the last one (`CONTRACT_BASELINE` / `--baseline <report.json>`): each
 * finding is `new` or `known`, and findings of the previous report that did not come back are
 * `gone`. A finding is the same when its severity, rule, operation, method and pointer pattern
 * (array indices as `*`) are: URLs (ports, generated values) and sample values may change.
 * The baseline run's observed profile (what the service did then) is found inside the report, or
 * beside it (`profile.json`, or the name the report gives); a profile file given directly is
 * that profile alone.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { resolveInside } from '../../files/inside.js';
import { readBoundedText } from '../../files/read-bounded.js';
import { pointerPattern } from '../../contract/index.js';
import { asProfile, PROFILE_FORMAT, readProfile, type Profile } from '../../evidence/index.js';
import type { Finding } from './findings.js';

/** The profile's file name beside a report, unless the report names another. */
export const PROFILE_FILE_NAME = 'profile.json';

/** What makes two findings of different runs the same finding. */
export function findingKey(
  f: Pick<Finding, 'severity' | 'rule' | 'operationId' | 'method' | 'pointer'>,
): string {
  return [
    f.severity,
    f.rule,
    f.operationId,
    f.method,
    f.pointer ? pointerPattern(f.pointer) : '',
  ].join(' ');
}

function parseJsonFile(path: string): unknown {
  try {
    return JSON.parse(readBoundedText(path));
  } catch (error) {
    throw new Error(
      `CONTRACT_BASELINE ${path}: cannot read a JSON report (${(error as Error).message})`,
    );
  }
}

/** The findings of a previous JSON report; a file that is not one is an error naming it. */
export function readBaseline(path: string): Finding[] {
  return findingsOf(parseJsonFile(path), path);
}

/** What a baseline file holds: a report's findings and its run's profile, or a profile alone. */
export interface BaselineRun {
  findings?: Finding[];
  profile?: Profile;
  /** Where the profile came from (the file, or `<report> (inside)`); undefined when none was found. */
  profileFrom?: string;
}

/**
 * Reads `CONTRACT_BASELINE`: a contract report (its profile inside it or beside it, if there is
 * one) or a profile. Anything else, or a profile that does not read, is an error naming the file.
 */
export function readBaselineRun(path: string): BaselineRun {
  const parsed = parseJsonFile(path) as Record<string, unknown> | null;
  if (parsed?.format === PROFILE_FORMAT)
    return { profile: asProfile(parsed, `CONTRACT_BASELINE ${path}`), profileFrom: path };
  const findings = findingsOf(parsed, path);
  const inside = parsed?.profile;
  if (inside && typeof inside === 'object')
    return {
      findings,
      profile: asProfile(inside, `CONTRACT_BASELINE ${path} (its "profile")`),
      profileFrom: `${path} (inside)`,
    };
  const beside = resolveInside(
    dirname(path),
    typeof inside === 'string' ? inside : PROFILE_FILE_NAME,
    `CONTRACT_BASELINE ${path}: its "profile"`,
  );
  if (!existsSync(beside)) return { findings };
  return { findings, profile: readProfile(beside), profileFrom: beside };
}

function findingsOf(parsed: unknown, path: string): Finding[] {
  const findings = (parsed as { findings?: unknown } | null)?.findings;
  if (
    !Array.isArray(findings) ||
    (findings as ({ rule?: unknown; severity?: unknown } | null)[]).some(
      (f) => typeof f?.rule !== 'string' || typeof f?.severity !== 'string',
    )
  ) {
    throw new Error(
      `CONTRACT_BASELINE ${path}: not a contract report (expected a "findings" list as in reports/contract-report.json) nor a profile (${PROFILE_FORMAT})`,
    );
  }
  return findings as Finding[];
}

export interface BaselineComparison {
  /** The current findings, each marked `new` or `known`. */
  findings: Finding[];
  /** Findings of the baseline that this run did not report. */
  gone: Finding[];
}

export function compareWithBaseline(
  current: readonly Finding[],
  previous: readonly Finding[],
): BaselineComparison {
  const before = new Set(previous.map(findingKey));
  const now = new Set(current.map(findingKey));
  const seenGone = new Set<string>();
  const gone = previous.filter((f) => {
    const key = findingKey(f);
    if (now.has(key) || seenGone.has(key)) return false;
    seenGone.add(key);
    return true;
  });
  return {
    findings: current.map((f) => ({ ...f, baseline: before.has(findingKey(f)) ? 'known' : 'new' })),
    gone,
  };
}

/** The rule of the failure that says the baseline could not be used. */
export const BASELINE_UNUSABLE = 'baseline';

/**
 * The baseline run, or, when its file cannot be used, a failure saying why (the run goes on, writes
 * its report and profile, and fails, so the next night has a fresh baseline).
 */
export function baselineOrFailure(path: string, url: string): BaselineRun | Finding {
  try {
    return readBaselineRun(path);
  } catch (error) {
    return {
      severity: 'failure',
      rule: BASELINE_UNUSABLE,
      operationId: '(the run)',
      method: '-',
      url,
      expected: 'a usable baseline (CONTRACT_BASELINE): a contract report or a profile',
      message: (error as Error).message,
    };
  }
}
