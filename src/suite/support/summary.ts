/**
 * @module support/summary
 * The Markdown summary (contract-summary.md, `$GITHUB_STEP_SUMMARY`, the console), rendered from
 * the JSON report and nothing else. It leads with the verdict and the findings grouped by cause
 * (rule x operations, with counts, then the first example of each), says when the target looks like
 * an older release and which flag checks it as that one, then what changed against a baseline,
 * what could not run, the tests that did not apply and the coverage table. Every string a server
 * could have shaped is cut to a length and escaped (`src/text/markdown.ts`), and the whole is cut
 * at a section's end to at most 1 MiB, GitHub's limit for a step summary, pointing to the JSON
 * report, which keeps every finding. Pure.
 */
import { truncate } from '../../contract/index.js';
import { codeSpan, escapeMarkdownInline } from '../../text/markdown.js';
import { coverageMarkdown } from './coverage.js';
import type { Finding } from './findings.js';
import { NOT_RUN } from './probe.js';
import type { ContractReport } from './report.js';
import type { Cause } from './rollup.js';

/** GitHub's limit for one step's summary. */
export const SUMMARY_LIMIT_BYTES = 1024 * 1024;
/** Causes in the roll-up table (and examples); the JSON report has them all. */
const MAX_CAUSES = 50;
/** Findings spelled out per list (new, changed, gone). */
const MAX_ITEMS = 20;
/** Rows of the not-run and skipped tables. */
const MAX_ROWS = 100;
/** A name (rule, operation, pointer, test) as shown. */
const NAME_CHARS = 120;
/** A message, value or URL as shown. */
const TEXT_CHARS = 300;

/** A string as literal Markdown text, cut to `max` characters. */
const text = (s: string, max = TEXT_CHARS) => escapeMarkdownInline(truncate(s, max, '…'));
/** A string as a code span, cut to `max` characters. */
const code = (s: string, max = TEXT_CHARS) => codeSpan(truncate(s, max, '…'));
const name = (s: string) => text(s, NAME_CHARS);

/** The one Markdown line of a finding: what broke where, the request, and what was seen. */
export function findingLine(f: Finding): string {
  const parts = [
    `${code(`${f.method} ${f.url}`)}${f.status === undefined ? '' : ` → ${f.status}`}`,
  ];
  if (f.pointer) parts.push(`at ${code(f.pointer, NAME_CHARS)}`);
  if (f.change) parts.push(`then ${code(f.change.then)}`, `now ${code(f.change.now)}`);
  else {
    parts.push(`expected ${text(f.expected)}`);
    if (f.actual !== undefined) parts.push(`got ${code(f.actual)}`);
  }
  if (f.assumption) parts.push(`assumed: ${text(f.assumption)}`);
  if (f.curl) parts.push(`repro ${code(f.curl, 2 * TEXT_CHARS)}`);
  return `- ${f.severity} **${name(f.rule)}** in ${name(f.operationId)}: ${text(f.message)} (${parts.join('; ')})`;
}

function causeRow(c: Cause): string {
  const ops = c.operations.map((o) => `${name(o.operationId)} (${o.count})`);
  if (c.moreOperations > 0) ops.push(`and ${c.moreOperations} more`);
  return `| ${c.severity} | ${name(c.rule)} | ${c.count} | ${ops.join(', ')} |`;
}

function causesSection(causes: readonly Cause[], jsonFile: string): string[] {
  if (causes.length === 0) return [];
  const shown = causes.slice(0, MAX_CAUSES);
  const more =
    causes.length > shown.length
      ? [`… and ${causes.length - shown.length} more cause(s) in ${code(jsonFile)}`, '']
      : [];
  return [
    '### By cause',
    '',
    '| severity | rule | findings | operations (findings) |',
    '|---|---|---|---|',
    ...shown.map(causeRow),
    '',
    ...more,
    'The first of each:',
    '',
    ...shown.map((c) => findingLine(c.first)),
    '',
  ];
}

function list(title: string, items: readonly Finding[], jsonFile: string): string[] {
  if (items.length === 0) return [];
  const more =
    items.length > MAX_ITEMS ? [`… and ${items.length - MAX_ITEMS} more in ${code(jsonFile)}`] : [];
  return [`### ${title}`, '', ...items.slice(0, MAX_ITEMS).map(findingLine), ...more, ''];
}

function table(title: string, header: string[], rows: string[][]): string[] {
  if (rows.length === 0) return [];
  const shown = rows.slice(0, MAX_ROWS);
  return [
    `### ${title}`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...shown.map((r) => `| ${r.join(' | ')} |`),
    ...(rows.length > shown.length ? ['', `… and ${rows.length - shown.length} more`] : []),
    '',
  ];
}

function headline(r: ContractReport): string {
  if (!r.tested) return 'FAILED: nothing was tested (no request succeeded)';
  if (!r.passed) return 'FAILED';
  return r.counts.notRun > 0 ? `passed, but ${r.counts.notRun} check(s) could not run` : 'passed';
}

/**
 * The verdict as one plain line, for a terminal that asked for no more (`CONTRACT_CONSOLE=verdict`
 * on a passing run): the summary's headline and counts, and where the summary is. Numbers only
 * besides the headline, so nothing a server shaped reaches the terminal.
 */
export function verdictLine(r: ContractReport, summaryFile: string): string {
  const c = r.counts;
  return `contract suite: ${headline(r)}: ${c.failures} failure(s), ${c.warnings} warning(s), ${c.skipped} of ${c.tests} test(s) skipped as not applying; ${r.requests} requests, ${(r.durationMs / 1000).toFixed(1)} s. Summary: ${summaryFile}`;
}

function hintSection(r: ContractReport): string[] {
  const hint = r.releaseHint;
  if (!hint) return [];
  const why = [
    ...(hint.unknownPaths.length
      ? [
          `${hint.unknownPaths.length} operation(s) answer 404 "No such path" (${hint.unknownPaths.slice(0, 8).map(name).join(', ')}), added after it`,
        ]
      : []),
    ...(hint.laterFields.length
      ? [
          `${hint.laterFields.length} absent field(s) arrived after it (${hint.laterFields
            .slice(0, 8)
            .map((f) => `${name(f.name)} since ${name(f.since)}`)
            .join(', ')})`,
        ]
      : []),
  ];
  const also = hint.alsoFits.length
    ? ` (${hint.alsoFits.map(name).join(', ')} fit${hint.alsoFits.length === 1 ? 's' : ''} as well)`
    : '';
  return [
    `**The target looks like release ${name(hint.release)}**${also}, not ${name(r.release)}: ${why.join('; ')}. Check it as that release: ${code(`--release ${hint.release}`)} (or ${code(`CONTRACT_RELEASE=${hint.release}`)}).`,
    '',
  ];
}

function baselineSection(r: ContractReport, jsonFile: string): string[] {
  const out: string[] = [];
  if (r.drift) {
    out.push(
      r.drift.profile === null
        ? `The baseline ${code(r.baseline?.file ?? '')} has no profile beside it: what the service did was not compared.`
        : `Against what the service did then (${code(r.drift.profile)}): **${r.drift.failures} change(s) that break clients**, ${r.drift.warnings} warning(s).`,
      '',
    );
  }
  if (r.baseline) {
    const fresh = r.findings.filter((f) => f.baseline === 'new' && !f.change);
    out.push(
      `Against the baseline ${code(r.baseline.file ?? '')}: **${fresh.filter((f) => f.severity === 'failure').length} new failure(s)**, ${fresh.filter((f) => f.severity === 'warning').length} new warning(s), ${r.baseline.known} known, ${r.baseline.gone} gone.`,
      '',
      ...list(
        'Changed since the baseline',
        r.findings.filter((f) => f.change),
        jsonFile,
      ),
      ...list('New since the baseline', fresh, jsonFile),
    );
  }
  return out;
}

/** Cuts at a section's end so that the whole stays within `limitBytes`, saying where the rest is. */
export function bounded(sections: readonly string[], limitBytes: number, jsonFile: string): string {
  const notice = `\n… the summary stops here, at GitHub's 1 MiB limit for a step summary; every finding is in ${code(jsonFile)}.\n`;
  const room = limitBytes - Buffer.byteLength(notice);
  let out = '';
  for (const section of sections) {
    if (Buffer.byteLength(out) + Buffer.byteLength(section) > room) return out + notice;
    out += section;
  }
  return out;
}

/** The summary of a completed run. */
export function renderSummary(
  r: ContractReport,
  jsonFile: string,
  limitBytes = SUMMARY_LIMIT_BYTES,
): string {
  const failures = r.counts.failures;
  const notRun = r.findings.filter((f) => f.notRun && f.rule === NOT_RUN);
  const skipped = r.tests.filter((t) => t.state === 'skipped');
  const sections = [
    [`## Contract suite: ${headline(r)}`, ''],
    hintSection(r),
    baselineSection(r, jsonFile),
    [
      `${failures} failure(s) (failed tests: ${r.counts.failedTests}), ${r.counts.warnings} warning(s), ${r.counts.skipped} test(s) skipped as not applying, of ${r.counts.tests}.`,
      '',
    ],
    causesSection(r.causes, jsonFile),
    r.gone ? list('Gone since the baseline', r.gone, jsonFile) : [],
    table(
      'Checks that could not run',
      ['operation', 'what', 'why'],
      notRun.map((f) => [name(f.operationId), text(f.notRun!.what), text(f.notRun!.why)]),
    ),
    table(
      'Tests skipped: they do not apply to this target',
      ['test', 'why'],
      skipped.map((t) => [name(t.name), text(t.skipped ?? 'skipped')]),
    ),
    ['### Coverage', '', coverageMarkdown(r.coverage), ''],
    [
      `Target ${code(r.target)} (${r.kind}), release ${name(r.release)}, seed ${r.seed}, ${r.strict ? 'strict' : 'default'} policy; ${r.counts.tests} tests, ${r.requests} requests, ${(r.durationMs / 1000).toFixed(1)} s. Every finding: ${code(jsonFile)}.`,
      '',
    ],
  ];
  return bounded(
    sections.filter((s) => s.length > 0).map((s) => `${s.join('\n')}\n`),
    limitBytes,
    jsonFile,
  );
}

/** The summary of a run that could not start (the target unreachable, the key refused): why. */
export function renderRefusal(reason: string, target: string, release: string): string {
  return [
    '## Contract suite: NOT RUN',
    '',
    `${text(reason, 2 * TEXT_CHARS)}`,
    '',
    `Target ${code(target)}, release ${name(release)}: nothing was tested.`,
    '',
  ].join('\n');
}
