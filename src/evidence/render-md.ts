/**
 * @module evidence/render-md
 * The ledger as one readable Markdown page per run (`evidence.md`, which GitHub shows as it is):
 * the summary, our `inferred` choices first with what the evidence says of each, every
 * contradicted fact with what was seen and a request, the candidate facts, counts per operation,
 * and the proposed change (the diff and the DECISIONS entry, to review, never applied). Every
 * fact with its verdict is in `evidence.json`; this page names the ones a reader acts on. Every
 * string that came from a profile, a server or the document stands in a code span (text/markdown.ts),
 * so none makes a heading, link, image, fence or table cell of its own.
 */
import { capName } from '../contract/index.js';
import { codeSpan, fenceFor } from '../text/markdown.js';
import type { Ledger, LedgerEntry, Verdict } from './ledger.js';
import type { Proposal } from './patch.js';

/** Rows a table shows before it points to evidence.json for the rest. */
export const MD_ROWS = 60;

/** A table cell: `|` escaped (GFM splits cells before it reads code spans); our text has no line breaks. */
export function cell(text: unknown): string {
  return String(text ?? '').replace(/\|/g, '\\|');
}

/** A value from a profile, a server or the document: a code span, its names capped. */
const code = (text: unknown) => codeSpan(capName(String(text ?? '')));

export const VERDICT_MARK: Record<Verdict, string> = {
  confirmed: 'confirmed',
  contradicted: '**contradicted**',
  unseen: 'unseen',
};

/** The document's value of a fact, in words. */
export function declared(e: Pick<LedgerEntry, 'kind' | 'value'>): string {
  if (e.kind === 'field')
    return (e.value as { required: boolean }).required ? 'required' : 'optional';
  if (e.kind === 'nullable') return e.value ? 'nullable' : 'not nullable';
  if (Array.isArray(e.value)) return e.value.map(String).join(', ');
  return String(e.value);
}

function table(head: string[], rows: string[][], more: number): string[] {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.slice(0, MD_ROWS).map((r) => `| ${r.map(cell).join(' | ')} |`),
    ...(rows.length > MD_ROWS || more > 0
      ? ['', `... and ${rows.length - Math.min(rows.length, MD_ROWS) + more} more in evidence.json`]
      : []),
    '',
  ];
}

/** One operation's counts of verdicts. */
function perOperation(ledger: Ledger): string[][] {
  const ops = new Map<string, Record<Verdict, number>>();
  for (const f of ledger.facts) {
    const c = ops.get(f.operation) ?? { confirmed: 0, contradicted: 0, unseen: 0 };
    c[f.verdict]++;
    ops.set(f.operation, c);
  }
  return [...ops].map(([op, c]) => [
    code(op),
    String(c.confirmed),
    String(c.contradicted),
    String(c.unseen),
  ]);
}

/** A block in a fence no line of it can close. */
function fenced(info: string, block: string): string[] {
  const fence = fenceFor(block);
  return [`${fence}${info}`, block.trimEnd(), fence, ''];
}

export function renderLedgerMarkdown(ledger: Ledger, proposal: Proposal): string {
  const s = ledger.summary;
  const contradicted = ledger.facts.filter((f) => f.verdict === 'contradicted');
  const candidates = [...ledger.candidates].sort(
    (a, b) => Number(b.consistent) - Number(a.consistent) || (a.id < b.id ? -1 : 1),
  );
  const lines = [
    `# Evidence${ledger.label ? ` of ${code(ledger.label)}` : ''}: what the target was seen to do`,
    '',
    `${ledger.responses} responses observed. ${s.facts} facts of the document: **${s.confirmed} confirmed**, **${s.contradicted} contradicted**, ${s.unseen} unseen. ${s.candidates} candidate facts the document does not state.`,
    '',
    '## Our choices (`inferred`) and what the evidence says',
    '',
    ...table(
      ['where the mark stands', 'verdict', 'confirmed', 'contradicted', 'unseen', 'for example'],
      ledger.inferred.map((i) => [
        code(i.markAt),
        VERDICT_MARK[i.verdict],
        String(i.confirmed),
        String(i.contradicted),
        String(i.unseen),
        i.examples.map(code).join('; '),
      ]),
      0,
    ),
    '## Contradicted',
    '',
    ...(contradicted.length === 0
      ? ['Nothing the document states was contradicted.', '']
      : table(
          ['operation', 'fact', 'the document says', 'x-source', 'seen instead', 'request'],
          contradicted.map((e) => [
            code(e.operation),
            `${code(e.kind)} ${code(e.subject)}${e.status ? ` (${code(e.status)})` : ''}`,
            code(declared(e)),
            code(e.source),
            e.seen ? code(e.seen) : '',
            e.example ? code(e.example) : '',
          ]),
          0,
        )),
    '## Candidate facts',
    '',
    'What the target did that the document does not say: consistent ones first (seen in every record or value, over enough observations).',
    '',
    ...(candidates.length === 0
      ? ['None.', '']
      : table(
          ['operation', 'kind', 'where', 'seen', 'consistent'],
          candidates.map((c) => [
            code(c.operationId),
            code(c.kind),
            `${code(c.subject)}${c.status ? ` (${code(c.status)})` : ''}`,
            code(c.seen),
            c.consistent ? 'yes' : 'no',
          ]),
          0,
        )),
    '## Verdicts per operation',
    '',
    ...table(['operation', 'confirmed', 'contradicted', 'unseen'], perOperation(ledger), 0),
    '## Proposed change to `spec/openapi.yaml`',
    '',
    'A proposal to review, never applied: save the diff as a file and `git apply` it if you agree, then add the entry below to `spec/DECISIONS.md`.',
    '',
    ...(proposal.diff
      ? fenced('diff', proposal.diff)
      : ['No edit of the document is proposed.', '']),
    '### The matching `spec/DECISIONS.md` entry',
    '',
    ...fenced('markdown', proposal.decisions),
    '',
  ];
  return `${lines.join('\n')}\n`;
}
