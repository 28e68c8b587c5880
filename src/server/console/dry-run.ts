/**
 * @module console/dry-run
 * What a dry run answers (`POST /__mock/stubs` with `dryRun: true`, and the console's record
 * check): the judge's verdict, nothing stored. Each refusal and warning names the field of the
 * request it is about, the pointer into the answer or record it names (read from the judge's line,
 * `"/images" must be array (documented)`), the rule and the kind of fact, so the console can show
 * it beside the line it names.
 */
import type { InputProblem } from '../../contract/index.js';
import { badRequest } from '../errors.js';
import type { RecordProblem } from '../records/record-schema.js';

export interface Finding {
  /** The member of the admin request it is about (`/patch`, `/respond`, `/times`, ...). */
  field: string;
  /** The pointer into the answer (or record) it names; the field's own when it names none. */
  pointer: string;
  rule: string;
  message: string;
  source?: string;
}

export interface Verdict {
  dryRun: true;
  ok: boolean;
  refusals: Finding[];
  warnings: Finding[];
}

const JUDGE_LINE = /^"((?:\/[^"]*)?)" (.*?)(?: \((documented|reference|inferred)\))?$/s;

/** A judge's line split into its pointer, what it says and its kind of fact. */
function lineOf(text: string, field: string, rule: string): Finding {
  const m = JUDGE_LINE.exec(text);
  if (!m) return { field, pointer: field, rule, message: text };
  return { field, pointer: m[1], rule, message: m[2], ...(m[3] ? { source: m[3] } : {}) };
}

/** `dryRun` taken off the body: true, false (store as usual) or absent; anything else is a 400. */
export function takeDryRun(body: Record<string, unknown>): {
  dryRun: boolean;
  rest: Record<string, unknown>;
} {
  const { dryRun, ...rest } = body;
  if (dryRun !== undefined && typeof dryRun !== 'boolean')
    throw badRequest([
      { in: 'body', name: '/dryRun', rule: 'true or false', message: 'must be a boolean' },
    ]);
  return { dryRun: dryRun === true, rest };
}

/** The verdict on a stub as the judge read it: its problems, or the stub and its warnings. */
export function stubVerdict(
  read: InputProblem[] | { warnings?: readonly string[]; respond?: unknown },
): Verdict {
  if (Array.isArray(read))
    return {
      dryRun: true,
      ok: false,
      refusals: read.map((p) => lineOf(p.message, p.name, p.rule)),
      warnings: [],
    };
  return {
    dryRun: true,
    ok: true,
    refusals: [],
    warnings: (read.warnings ?? []).map((w) =>
      lineOf(w, read.respond === undefined ? '/patch' : '/respond', 'inferred fact'),
    ),
  };
}

/** The verdict on a record: its problems, or its warnings. */
export function recordVerdict(
  checked: { ok: true; warnings: RecordProblem[] } | { ok: false; problems: RecordProblem[] },
): Verdict {
  const finding = (p: RecordProblem): Finding => ({
    field: '',
    pointer: p.pointer,
    rule: p.rule,
    message: p.message,
    source: p.source,
  });
  return checked.ok
    ? { dryRun: true, ok: true, refusals: [], warnings: checked.warnings.map(finding) }
    : { dryRun: true, ok: false, refusals: checked.problems.map(finding), warnings: [] };
}
