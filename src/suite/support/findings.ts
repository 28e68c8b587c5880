/**
 * @module support/findings
 * What a check reports: one finding per broken (or doubtful) rule, carrying everything needed to
 * reproduce it, and the one formatter that turns it into a failure message.
 */
import { truncate, type Source } from '../../contract/index.js';
import { showControls } from '../../text/markdown.js';

export type Severity = 'failure' | 'warning';

export interface Finding {
  severity: Severity;
  /** Short rule name, e.g. `schema`, `pagination.offset`, `sort-order`, `auth.401`. */
  rule: string;
  operationId: string;
  method: string;
  /** Full request URL; never contains a key (keys travel in a header). */
  url: string;
  status?: number;
  /** JSON pointer into the body, `header:<name>`, or `status`. */
  pointer?: string;
  expected: string;
  actual?: string;
  message: string;
  /** Reproduces the request, with the key as `$API_KEY`. */
  curl?: string;
  /** `documented` (stated by the source), `reference` (the vendor's reference) or `inferred` (our reading of "not shown"). */
  source?: Source;
  /** For a warning on an unstated point: what the suite assumed (the matching spec/DECISIONS.md entry). */
  assumption?: string;
  /** Against `--baseline`: whether the previous report had this finding. */
  baseline?: 'new' | 'known';
  /** A check (or part of one) that could not run (rule `not-run`): what was not checked, and why. */
  notRun?: { what: string; why: string };
  /** Drift against the baseline's profile (rules `drift.*`): what the service did then, and now. */
  change?: { then: string; now: string };
}

const MAX_ACTUAL_CHARS = 300;

/** A value as it appears in a finding: JSON, cut to a readable length. */
export function show(value: unknown): string {
  let text: string;
  if (value === undefined) text = 'undefined';
  else if (typeof value === 'string') text = JSON.stringify(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return truncate(text, MAX_ACTUAL_CHARS, `... (${text.length} chars)`);
}

/**
 * The multi-line message a failing test prints for one finding (the console, JUnit). Each value
 * stays on its line, with control characters (a terminal's escape sequences) shown as their \u escapes.
 */
export function formatFinding(finding: Finding): string {
  const f = mapStrings(finding, showControls);
  const lines = [
    `[${f.severity}] ${f.rule} in ${f.operationId}${f.source ? ` (x-source: ${f.source})` : ''}: ${f.message}`,
    `  request:  ${f.method} ${f.url}${f.status === undefined ? '' : ` -> ${f.status}`}`,
  ];
  if (f.pointer !== undefined) lines.push(`  pointer:  ${f.pointer || '(body)'}`);
  if (f.change) lines.push(`  then:     ${f.change.then}`, `  now:      ${f.change.now}`);
  else {
    lines.push(`  expected: ${f.expected}`);
    if (f.actual !== undefined) lines.push(`  actual:   ${f.actual}`);
  }
  if (f.assumption) lines.push(`  assumed:  ${f.assumption} (spec/DECISIONS.md)`);
  if (f.curl) lines.push(`  repro:    ${f.curl}`);
  return lines.join('\n');
}

/** The finding with `change` applied to every string it carries (nested ones too). */
export function mapStrings(f: Finding, change: (s: string) => string): Finding {
  const out = { ...f } as Record<string, unknown>;
  for (const [key, value] of Object.entries(f))
    if (typeof value === 'string') out[key] = change(value);
  if (f.notRun) out.notRun = { what: change(f.notRun.what), why: change(f.notRun.why) };
  if (f.change) out.change = { then: change(f.change.then), now: change(f.change.now) };
  return out as unknown as Finding;
}

export function failuresOf(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.severity === 'failure');
}
