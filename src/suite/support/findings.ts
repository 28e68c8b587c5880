/**
 * @module support/findings
 * What a check reports: one finding per broken (or doubtful) rule, carrying everything needed to
 * reproduce it, and the one formatter that turns it into a failure message.
 */
import type { Finding, Severity } from '../../api/types.js';
import { truncate } from '../../contract/index.js';
import { showControls } from '../../text/markdown.js';

// Public: the report's shape is defined in api/types.ts.
export type { Finding, Severity };

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
