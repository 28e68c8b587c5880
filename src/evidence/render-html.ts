/**
 * @module evidence/render-html
 * The ledger as a static HTML page (`evidence.html`), one file with its style inline and nothing
 * loaded from elsewhere: the summary, our `inferred` choices, what was contradicted, and, when
 * earlier runs were kept, the history: a table of facts against nights, each cell confirmed,
 * contradicted or unseen, marked "changed" where it went from confirmed to contradicted or back,
 * or showed something else (unseen is no evidence either way). Only facts contradicted or changed
 * on some night get a row, tonight's contradictions first. Then the
 * candidates and the proposed change. Pure: the same ledgers give the same bytes. Every value
 * interpolated, numbers and class names included, goes through `escapeHtml`: earlier nights come
 * from files (checked by ledger-schema.ts, and still not trusted).
 */
import type { Ledger, LedgerEntry } from './ledger.js';
import type { Proposal } from './patch.js';
import { capName } from '../contract/index.js';
import { declared } from './render-md.js';

/** Nights the history table shows, the newest last. */
export const HISTORY_NIGHTS = 14;
/** Facts the history table shows at most. */
export const HISTORY_ROWS = 200;

/** Text for an HTML element or a double- or single-quoted attribute. */
export function escapeHtml(text: unknown): string {
  return String(text ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A verdict as a class name: only the words the style knows. */
const VERDICT_CLASSES = new Set(['confirmed', 'contradicted', 'unseen', 'absent']);
const verdictClass = (verdict: unknown): string =>
  VERDICT_CLASSES.has(String(verdict)) ? String(verdict) : 'absent';

/** A name (a pointer, an id, a label, a request) from a profile or a file: capped, then escaped. */
const name = (text: unknown): string => escapeHtml(capName(String(text ?? '')));
/** A number from a file: escaped like any text. */
const num = (n: unknown): string => escapeHtml(n);

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1b1b;max-width:80rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .45rem;text-align:left;vertical-align:top}
th{background:#f3f3f3}code{font-size:12px}
.confirmed{background:#e3f4e1}.contradicted{background:#fbdcdc;font-weight:600}.unseen{color:#777}.absent{color:#aaa}
.changed{outline:2px solid #d98e04;outline-offset:-2px}
pre{background:#f6f6f6;padding:.75rem;overflow:auto;font-size:12px}
.counts span{display:inline-block;margin-right:1rem}`;

type Cell = { verdict: string; seen?: string; changed: boolean };
type Judged = Pick<LedgerEntry, 'verdict' | 'seen'> | undefined;

/**
 * Whether a fact's reading moved between two nights: confirmed to contradicted or back, or a
 * different thing seen while contradicted. Unseen on either night is no evidence of a change.
 */
function changed(before: Judged, after: Judged): boolean {
  if (!before || !after || before.verdict === 'unseen' || after.verdict === 'unseen') return false;
  return before.verdict !== after.verdict || (before.seen ?? '') !== (after.seen ?? '');
}

/** The runs as columns: fact id -> one cell per run; contradicted tonight first. */
function historyRows(runs: readonly Ledger[]): { fact: LedgerEntry; cells: Cell[] }[] {
  const byRun = runs.map((r) => new Map(r.facts.map((f) => [f.id, f])));
  const ids = new Set<string>();
  byRun.forEach((facts, i) => {
    for (const [id, f] of facts)
      if (f.verdict === 'contradicted' || (i > 0 && changed(byRun[i - 1].get(id), f))) ids.add(id);
  });
  const tonight = byRun[byRun.length - 1];
  const rank = (id: string) => (tonight.get(id)?.verdict === 'contradicted' ? 0 : 1);
  return [...ids]
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))
    .slice(0, HISTORY_ROWS)
    .map((id) => {
      const cells = byRun.map((facts, i) => {
        const f = facts.get(id);
        return {
          verdict: f?.verdict ?? 'absent',
          seen: f?.seen,
          changed: i > 0 && changed(byRun[i - 1].get(id), f),
        };
      });
      return { fact: byRun.map((facts) => facts.get(id)).find(Boolean)!, cells };
    });
}

function historySection(runs: readonly Ledger[]): string {
  if (runs.length < 2)
    return '<p id="no-history">No earlier runs were given (<code>--history DIR</code> with the folders of earlier runs), so there is no history to show.</p>';
  const rows = historyRows(runs);
  const head = runs
    .map((r, i) => `<th scope="col">${name(r.label || `run ${i + 1}`)}</th>`)
    .join('');
  const totals = runs
    .map(
      (r) =>
        `<td>${num(r.summary.confirmed)} / <b>${num(r.summary.contradicted)}</b> / ${num(r.summary.unseen)}</td>`,
    )
    .join('');
  const body = rows
    .map(
      ({ fact, cells }) =>
        `<tr data-fact="${name(fact.id)}"><th scope="row"><code>${name(fact.operation)}</code> ${escapeHtml(fact.kind)} <code>${name(fact.subject)}</code>${fact.status ? ` (${name(fact.status)})` : ''} <small>(${escapeHtml(fact.source)})</small></th>${cells
          .map(
            (c) =>
              `<td class="${verdictClass(c.verdict)}${c.changed ? ' changed' : ''}" title="${escapeHtml(c.seen ?? '')}">${c.verdict === 'absent' ? '—' : escapeHtml(c.verdict)}${c.changed ? ' (changed)' : ''}</td>`,
          )
          .join('')}</tr>`,
    )
    .join('\n');
  return `<p>Facts contradicted or changed on some night (steady facts are left out); a cell's tooltip says what was seen.</p>
<table id="history"><thead><tr><th scope="col">fact</th>${head}</tr></thead>
<tbody><tr class="totals"><th scope="row">confirmed / contradicted / unseen</th>${totals}</tr>
${body}</tbody></table>`;
}

export function renderLedgerHtml(
  ledger: Ledger,
  proposal: Proposal,
  history: readonly Ledger[] = [],
  /** Earlier runs' files left out (not ledgers, unreadable): said on the page. */
  skipped = 0,
): string {
  const s = ledger.summary;
  const runs = [...history.slice(-(HISTORY_NIGHTS - 1)), ledger];
  const contradicted = ledger.facts.filter((f) => f.verdict === 'contradicted');
  const title = `Evidence${ledger.label ? ` of ${ledger.label}` : ''}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${name(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body>
<h1>${name(title)}: what the target was seen to do</h1>
<p class="counts"><span>${num(ledger.responses)} responses</span><span>${num(s.facts)} facts</span><span class="confirmed" id="n-confirmed">${num(s.confirmed)} confirmed</span><span class="contradicted" id="n-contradicted">${num(s.contradicted)} contradicted</span><span class="unseen">${num(s.unseen)} unseen</span><span>${num(s.candidates)} candidates</span></p>
<h2>Our choices (<code>inferred</code>)</h2>
<table id="inferred"><thead><tr><th>where the mark stands</th><th>verdict</th><th>confirmed</th><th>contradicted</th><th>unseen</th></tr></thead><tbody>
${ledger.inferred.map((i) => `<tr><td><code>${name(i.markAt)}</code></td><td class="${verdictClass(i.verdict)}">${escapeHtml(i.verdict)}</td><td>${num(i.confirmed)}</td><td>${num(i.contradicted)}</td><td>${num(i.unseen)}</td></tr>`).join('\n')}
</tbody></table>
<h2>History</h2>
${historySection(runs)}${skipped > 0 ? `\n<p id="history-skipped">${num(skipped)} file(s) of the history folder left out (not a ledger, unreadable, or too many); the command's error output names each and why.</p>` : ''}
<h2>Contradicted tonight</h2>
${
  contradicted.length === 0
    ? '<p>Nothing the document states was contradicted.</p>'
    : `<table id="contradicted"><thead><tr><th>operation</th><th>fact</th><th>the document says</th><th>x-source</th><th>seen instead</th><th>request</th></tr></thead><tbody>
${contradicted.map((e) => `<tr><td><code>${name(e.operation)}</code></td><td>${escapeHtml(e.kind)} <code>${name(e.subject)}</code></td><td>${escapeHtml(declared(e))}</td><td>${escapeHtml(e.source)}</td><td>${escapeHtml(e.seen)}</td><td><code>${name(e.example ?? '')}</code></td></tr>`).join('\n')}
</tbody></table>`
}
<h2>Candidate facts</h2>
<table id="candidates"><thead><tr><th>operation</th><th>kind</th><th>where</th><th>seen</th><th>consistent</th></tr></thead><tbody>
${ledger.candidates.map((c) => `<tr><td>${name(c.operationId)}</td><td>${escapeHtml(c.kind)}</td><td><code>${name(c.subject)}</code></td><td>${escapeHtml(c.seen)}</td><td>${c.consistent ? 'yes' : 'no'}</td></tr>`).join('\n')}
</tbody></table>
<h2>Proposed change to <code>spec/openapi.yaml</code> (to review, never applied)</h2>
${proposal.diff ? `<pre id="diff">${escapeHtml(proposal.diff)}</pre>` : '<p>No edit of the document is proposed.</p>'}
<pre id="decisions">${escapeHtml(proposal.decisions)}</pre>
</body></html>
`;
}
