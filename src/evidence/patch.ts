/**
 * @module evidence/patch
 * The ledger's proposal: a change to `spec/openapi.yaml` as a unified diff that a person reviews
 * and applies (never applied here), and the `spec/DECISIONS.md` entry that goes with it, each line
 * citing its evidence. Edits are made in the document's own text at the nodes the facts name
 * (yaml's source ranges), so the diff shows only what changes, comments and layout untouched:
 * a default or `x-offset` the target contradicts takes the value it showed; an enum or type gains
 * what was seen; a field the target sent in every record is declared, `x-source: inferred`.
 * What cannot be written as a small edit (a required field missing, a default order, a format)
 * is said in the DECISIONS entry for the person to decide.
 *
 * What a target sent is data in both: a YAML scalar is written by the yaml package (quoted when
 * plain would not read back as itself, so no line break, `---` or `#` changes the document's
 * structure), a name or value holding a control character is not proposed at all, a default is
 * proposed only inside its schema's bounds, and the DECISIONS entry shows every value as a code
 * span.
 */
import { createTwoFilesPatch } from 'diff';
import { isMap, isScalar, isSeq, parseDocument, stringify, type Document } from 'yaml';
import { capName, lastSegment, MAX_NAME_LENGTH, segmentsOf } from '../contract/index.js';
import { codeSpan, showControls } from '../text/markdown.js';
import type { Candidate, Ledger, LedgerEntry } from './ledger.js';

export interface Proposal {
  /** Unified diff of `spec/openapi.yaml`; empty when nothing is proposed. */
  diff: string;
  /** The proposed `spec/DECISIONS.md` entry (Markdown), citing the evidence line by line. */
  decisions: string;
  /** One line per edit in the diff. */
  edits: string[];
}

interface Edit {
  start: number;
  end: number;
  text: string;
  why: string;
}

type Ranged = { range?: [number, number, number] | null };

function nodeAt(doc: Document, pointer: string): Ranged | undefined {
  const node = doc.getIn(segmentsOf(pointer), true) as Ranged | undefined;
  return node && node.range ? node : undefined;
}

/** A string that reads back as itself unquoted, in block and flow context alike. */
const PLAIN = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const RESERVED = new Set(['null', 'true', 'false', 'yes', 'no', 'on', 'off', 'y', 'n']);

/** Whether a string holds something a reader cannot see (a line break, a control or bidi character). */
const hasControls = (text: string): boolean => showControls(text) !== text;

/**
 * A scalar as one line of YAML that reads back as the same value in flow context; undefined for
 * what is not proposed (a string with a control character, a number that is not finite).
 */
function yamlScalar(value: unknown): string | undefined {
  if (typeof value === 'string') {
    if (hasControls(value)) return undefined;
    if (PLAIN.test(value) && !RESERVED.has(value.toLowerCase())) return value;
    const quoted = stringify(value, {
      defaultStringType: value.includes("'") ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE',
      lineWidth: 0,
    }).trimEnd();
    return quoted.includes('\n') || quoted.includes('\r') ? undefined : quoted;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  return undefined;
}

function flowSeq(values: readonly unknown[]): string | undefined {
  const items = values.map(yamlScalar);
  return items.every((i) => i !== undefined) ? `[${items.join(', ')}]` : undefined;
}

/** A value in the DECISIONS entry's text: a code span, its names capped. */
const cite = (value: unknown): string =>
  codeSpan(capName(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))));

/** The most frequent key of some counts (ties: the smallest). */
function mostSeen(counts: Record<string, number>): string {
  return Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0][0];
}

/** Replaces a scalar or a flow sequence (a whole node) at a pointer. */
function replaceNode(doc: Document, pointer: string, text: string, why: string): Edit | undefined {
  const node = nodeAt(doc, pointer);
  if (!node || !(isScalar(node) || (isSeq(node) && node.flow))) return undefined;
  return { start: node.range![0], end: node.range![1], text, why };
}

function typeEdit(doc: Document, e: LedgerEntry): Edit | undefined {
  const at = `${e.at}/type`;
  const node = nodeAt(doc, at);
  if (!node) return undefined;
  const current = isScalar(node) ? [String(node.value)] : isSeq(node) ? node.toJSON() : [];
  const added = e.kind === 'nullable' ? ['null'] : Object.keys(e.counts ?? {});
  const next = flowSeq([...new Set([...(current as string[]), ...added])]);
  if (next === undefined) return undefined;
  return replaceNode(doc, at, next, `${cite(e.id)}: type ${cite(next)} (${cite(e.seen)})`);
}

/** A page size the schema at `defaultAt`'s parent allows: a whole number inside its bounds. */
function allowedDefault(doc: Document, defaultAt: string, size: number): boolean {
  const schema = nodeAt(doc, defaultAt.slice(0, defaultAt.lastIndexOf('/')));
  const bounds = (isMap(schema) ? schema.toJSON() : {}) as { minimum?: unknown; maximum?: unknown };
  return (
    Number.isSafeInteger(size) &&
    (typeof bounds.minimum !== 'number' || size >= bounds.minimum) &&
    (typeof bounds.maximum !== 'number' || size <= bounds.maximum)
  );
}

function entryEdit(doc: Document, e: LedgerEntry): Edit | undefined {
  switch (e.kind) {
    case 'default': {
      const size = Number(mostSeen(e.counts ?? {}));
      // A default outside the schema's own bounds would make the document contradict itself.
      if (!allowedDefault(doc, e.at, size)) return undefined;
      return replaceNode(
        doc,
        e.at,
        String(size),
        `${cite(e.id)}: ${cite(e.value)} -> ${size} (${cite(e.seen)})`,
      );
    }
    case 'offset': {
      const unit = (e.counts?.item ?? 0) > (e.counts?.page ?? 0) ? 'item' : 'page';
      return replaceNode(
        doc,
        `${e.at}/x-offset`,
        unit,
        `${cite(e.id)}: x-offset ${unit} (${cite(e.seen)})`,
      );
    }
    case 'enum': {
      const at = `${e.at}/enum`;
      const node = nodeAt(doc, at);
      if (!node || !isSeq(node)) return undefined;
      const gained = Object.keys(e.counts ?? {}).sort();
      const next = flowSeq([...node.toJSON(), ...gained]);
      if (next === undefined) return undefined;
      return replaceNode(doc, at, next, `${cite(e.id)}: enum gains ${gained.map(cite).join(', ')}`);
    }
    case 'type':
    case 'nullable':
      return typeEdit(doc, e);
    default:
      return undefined;
  }
}

/** A property for a field the target sent in every record, at the end of its parent's `properties`. */
function fieldEdit(
  doc: Document,
  text: string,
  c: Candidate,
  cited: string,
  label: string,
): Edit | undefined {
  if (!c.propertiesAt) return undefined;
  const map = nodeAt(doc, c.propertiesAt);
  if (!map || !isMap(map) || map.flow || map.items.length === 0) return undefined;
  const firstKey = map.items[0].key as Ranged;
  const last = map.items[map.items.length - 1];
  const lastEnd = ((last.value ?? last.key) as Ranged).range![1];
  const keyStart = firstKey.range![0];
  const indent = ' '.repeat(keyStart - (text.lastIndexOf('\n', keyStart - 1) + 1));
  let pos = lastEnd;
  while (pos > 0 && /\s/.test(text[pos - 1])) pos--;
  const lineEnd = text.indexOf('\n', pos);
  const name = lastSegment(c.subject);
  const types = (c.types ?? []).includes('number')
    ? (c.types ?? []).filter((t) => t !== 'integer')
    : (c.types ?? []);
  const type = types.length === 1 ? yamlScalar(types[0]) : flowSeq(types);
  const description = yamlScalar(
    `Seen in every record (${cited}; evidence ${capName(showControls(label)) || 'of the profile'}); neither the source nor the reference names it.`,
  );
  const key = yamlScalar(name);
  // A name with a control character, or longer than any output keeps, is not proposed.
  if (name.length > MAX_NAME_LENGTH || !key || !type || !description) return undefined;
  return {
    start: lineEnd < 0 ? text.length : lineEnd,
    end: lineEnd < 0 ? text.length : lineEnd,
    text: `\n${indent}${key}: { type: ${type}, x-source: inferred, description: ${description} }`,
    why: `${cite(c.subject)}: declared as ${cite(type)} (${cite(cited)})`,
  };
}

function applyEdits(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

function nextEntryNumber(decisionsText: string): number {
  const numbers = [...decisionsText.matchAll(/^## (\d+)\./gm)].map((m) => Number(m[1]));
  return (numbers.length ? Math.max(...numbers) : 0) + 1;
}

function citeEntry(e: LedgerEntry): string {
  return `${cite(e.operation)} ${cite(e.kind)} ${cite(e.subject)}${e.status ? ` (${cite(e.status)})` : ''}`;
}

/** The proposal for a ledger: a diff of the document's text and a DECISIONS entry. */
export function proposeChange(
  ledger: Ledger,
  specText: string,
  decisionsText: string,
  specName = 'spec/openapi.yaml',
): Proposal {
  const doc = parseDocument(specText);
  const edits: Edit[] = [];
  const seenAt = new Set<string>();
  const contradicted = ledger.facts.filter((f) => f.verdict === 'contradicted');
  const manual: string[] = [];
  for (const e of contradicted) {
    const edit = seenAt.has(`${e.kind} ${e.at}`) ? undefined : entryEdit(doc, e);
    if (edit) {
      seenAt.add(`${e.kind} ${e.at}`);
      edits.push({
        ...edit,
        why: `${edit.why}${e.example ? `; request: ${cite(e.example)}` : ''}`,
      });
    } else if (!seenAt.has(`${e.kind} ${e.at}`))
      manual.push(
        `  - ${citeEntry(e)}: the document says ${cite(e.value)} (${cite(e.source)}, ${cite(e.at)}); seen: ${cite(e.seen)}${e.example ? ` (${cite(e.example)})` : ''}. To decide by hand.`,
      );
  }
  // A field sent in every record: one property per schema, citing every operation that showed it.
  const fields = ledger.candidates.filter((c) => c.kind === 'field' && c.consistent);
  const bySchema = new Map<string, Candidate[]>();
  for (const c of fields) {
    const key = `${c.propertiesAt} ${c.subject.slice(c.subject.lastIndexOf('/') + 1)}`;
    bySchema.set(key, [...(bySchema.get(key) ?? []), c]);
  }
  const added: string[] = [];
  for (const group of bySchema.values()) {
    const cited = group
      .map((c) => `${c.operationId} ${c.observations} of ${c.counts.records}`)
      .join(', ');
    const edit = fieldEdit(doc, specText, group[0], cited, ledger.label);
    if (edit) {
      edits.push(edit);
      added.push(
        `  - ${cite(group[0].subject)} (${group.map((c) => cite(c.operationId)).join(', ')}): ${cite(group[0].seen)}${group[0].example ? ` (${cite(group[0].example)})` : ''}.`,
      );
    }
  }
  const patched = applyEdits(specText, edits);
  const diff =
    edits.length === 0
      ? ''
      : createTwoFilesPatch(`a/${specName}`, `b/${specName}`, specText, patched, '', '', {
          context: 3,
        });
  const confirmedInferred = ledger.inferred.filter((i) => i.verdict === 'confirmed');
  const lines = [
    `## ${nextEntryNumber(decisionsText)}. Evidence${ledger.label ? ` of ${cite(ledger.label)}` : ''}: what the target was seen to do`,
    '',
    `- Source and reference: silent on what follows; these are observations (${ledger.responses} responses; ${ledger.summary.confirmed} facts confirmed, ${ledger.summary.contradicted} contradicted, ${ledger.summary.unseen} unseen).`,
    ...(edits.length
      ? [
          '- Decision (proposed, for review; the diff beside this entry):',
          ...edits.map((e) => `  - ${e.why}`),
        ]
      : []),
    ...(added.length ? ['- Fields the target sent in every record:', ...added] : []),
    ...(manual.length ? ['- Contradicted, no edit proposed:', ...manual] : []),
    ...(confirmedInferred.length
      ? [
          '- Our choices (`inferred`) the evidence confirms:',
          ...confirmedInferred.map(
            (i) =>
              `  - ${cite(i.markAt)}: ${i.confirmed} of ${i.facts} fact(s) confirmed (${i.examples.map(cite).join('; ')}).`,
          ),
        ]
      : []),
    '- Why: a client depends on what the service does where the source and the reference are silent; each line cites the observations it rests on.',
    `- Where: ${[...new Set([...contradicted.map((e) => cite(e.at)), ...fields.map((c) => cite(c.propertiesAt))])].join(', ') || 'nothing to change'}.`,
  ];
  return { diff, decisions: `${lines.join('\n')}\n`, edits: edits.map((e) => e.why) };
}
