/**
 * @module support/baseline
 * Nightly runs compare with the last one (`CONTRACT_BASELINE` / `--baseline <report.json>`): each
 * finding is `new` or `known`, and findings of the previous report that did not come back are
 * `gone`. A finding is the same when its severity, rule, operation, method and pointer pattern
 * (array indices as `*`) are: URLs (ports, generated values) and sample values may change.
 */
import { readFileSync } from 'node:fs';
import { pointerPattern } from '../../src/contract/index.js';
import type { Finding } from './findings.js';

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

/** The findings of a previous JSON report; a file that is not one is an error naming it. */
export function readBaseline(path: string): Finding[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(
      `CONTRACT_BASELINE ${path}: cannot read a JSON report (${(error as Error).message})`,
    );
  }
  const findings = (parsed as { findings?: unknown } | null)?.findings;
  if (
    !Array.isArray(findings) ||
    (findings as ({ rule?: unknown; severity?: unknown } | null)[]).some(
      (f) => typeof f?.rule !== 'string' || typeof f?.severity !== 'string',
    )
  ) {
    throw new Error(
      `CONTRACT_BASELINE ${path}: not a contract report (expected a "findings" list as in reports/contract-report.json)`,
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
