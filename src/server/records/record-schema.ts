/**
 * @module records/record-schema
 * What a record a test puts must be: which schema is a family's record (the 200 answer of the
 * family's by-ID operation, found from the list operation's path), which property is its
 * identifier (the one the seed's records carry their identifier in), and the check itself. A
 * record that breaks a documented or reference fact is refused, naming each pointer and rule; one
 * that breaks only an inferred fact is taken, with the breaks as warnings (DECISIONS 97). Hrefs
 * are rewritten as the dataset's own are built: the identifier encoded once, on this mock's base.
 */
import {
  BASE_PATH,
  fieldNamedBy,
  findAbsent,
  listItemSchema,
  type Contract,
  type Operation,
  type Validators,
  type Violation,
} from '../../contract/index.js';
import { MAX_CONTROL_DEPTH, nestsDeeper } from '../../contract/judge/json.js';
import type { RecordProblem } from '../../api/types.js';
import type { Dataset } from '../../dataset/dataset.js';
import { canonicalPath, links } from '../../dataset/links.js';
import { RECORD_FAMILIES, type RecordFamily } from '../../state/records/overlay.js';
import { LIST_OPERATION } from '../context.js';
import { literalPattern } from '../../contract/literal-pattern.js';

export interface RecordFamilyInfo {
  family: RecordFamily;
  /** The GET operation answering one record of the family; its 200 schema is the record's. */
  byId: Operation;
  /** The record property holding the family's identifier (`productId`, `orderableId`, `agileId`...). */
  idField: string;
  /** The family's list: its item schema is the record's too (a list serves the record as it is). */
  list: Operation;
  /** The record property the by-ID path takes (`dcpDocumentId` for `/documents/{dcp_id}`; else `idField`). */
  pathField: string;
}

/** How many seed records must agree on the identifier property (all of them, when fewer). */
const ID_SAMPLE = 20;

function idFieldOf(collection: Dataset[RecordFamily]): string | undefined {
  const sample = Math.min(ID_SAMPLE, collection.size);
  if (sample === 0) return undefined;
  const first = collection.record(0) as unknown as Record<string, unknown>;
  return Object.keys(first).find((name) => {
    for (let i = 0; i < sample; i++)
      if ((collection.record(i) as unknown as Record<string, unknown>)[name] !== collection.id(i))
        return false;
    return true;
  });
}

/** The editable families the served release has, each with its record schema's operation. */
export function recordFamilies(
  contract: Contract,
  dataset: Dataset,
): Map<RecordFamily, RecordFamilyInfo> {
  const families = new Map<RecordFamily, RecordFamilyInfo>();
  for (const family of RECORD_FAMILIES) {
    const list = contract.operations.find((op) => op.operationId === LIST_OPERATION[family]);
    if (!list) continue;
    const pattern = new RegExp(`^${literalPattern(list.path)}/\\{[^/}]+\\}$`);
    const byId = contract.operations.find(
      (op) => op.method === 'get' && pattern.test(op.path) && op.responses.has('200'),
    );
    const idField = idFieldOf(dataset[family]);
    const param = byId?.parameters.find((p) => p.in === 'path');
    const fields = dataset[family].size > 0 ? Object.keys(dataset[family].record(0)) : [];
    const pathField = (param && fieldNamedBy(param.name, fields)) ?? idField;
    if (byId && idField && pathField)
      families.set(family, { family, byId, idField, list, pathField });
  }
  return families;
}

/** One reason a record is refused or warned about. */
/** A fact of the document a record breaks (the public `RecordProblem`, api/types.ts). */
export type { RecordProblem };

export type CheckedRecord =
  | { ok: true; id: string; record: Record<string, unknown>; warnings: RecordProblem[] }
  | { ok: false; problems: RecordProblem[] };

const problemOf = (v: Violation): RecordProblem => ({
  pointer: v.pointer,
  rule: v.rule,
  message: v.message,
  source: v.source,
});

/**
 * A string that is an API href, on any base (the live service's, a proxy's, ours) or relative,
 * re-encoded as ours; anything else unchanged.
 */
function canonicalHref(value: string, baseUrl: string): string {
  let path = value;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  if (absolute) {
    let pathname: string;
    try {
      pathname = new URL(value).pathname;
    } catch {
      return value;
    }
    const at = pathname.indexOf(`${BASE_PATH}/`);
    if (at < 0) return value;
    path = pathname.slice(at + BASE_PATH.length);
  } else if (!value.startsWith('/')) return value;
  const canonical = canonicalPath(path);
  if (!canonical) return value;
  return absolute ? links.absolute(baseUrl, canonical.path) : canonical.path;
}

/** A copy of a JSON value with every API href in it built as the dataset builds its own. */
export function withCanonicalHrefs(value: unknown, baseUrl: string): unknown {
  if (typeof value === 'string') return canonicalHref(value, baseUrl);
  if (Array.isArray(value)) return value.map((v) => withCanonicalHrefs(v, baseUrl));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    // Defined, not assigned: a member named `__proto__` stays a member, never the prototype.
    for (const [name, v] of Object.entries(value))
      Object.defineProperty(copy, name, {
        value: withCanonicalHrefs(v, baseUrl),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return copy;
  }
  return value;
}

/** Records nest a few levels (a part's `regulatory.hazardousMaterials`); deeper is refused before any walk. */
export const MAX_RECORD_DEPTH = MAX_CONTROL_DEPTH;

/** The record as an item of its family's list: the list item schema's problems, named by the list. */
function listItemProblems(
  info: RecordFamilyInfo,
  validators: Validators,
  record: Record<string, unknown>,
): RecordProblem[] {
  const page = { data: [record], pagination: { offset: 0, limit: 1, total: 1, has_more: false } };
  const item = '/data/0';
  return validators
    .checkResponseBody(info.list, 200, page)
    .filter((v) => v.pointer === item || v.pointer.startsWith(`${item}/`))
    .map((v) => ({
      ...problemOf(v),
      pointer: v.pointer.slice(item.length),
      message: v.message.replace(item, ''),
      rule: `${v.rule} (as an item of ${info.list.operationId})`,
    }));
}

/**
 * The fields the record leaves out that its answers declare where presence is not stated: the
 * suite warns of each (`absent-field`), so the put does too, naming each pointer (DECISIONS 103).
 * A field an operation cannot serve the record without is refused by the trial (records-trial.ts).
 */
function absentProblems(info: RecordFamilyInfo, record: Record<string, unknown>): RecordProblem[] {
  const absent = new Set([
    ...findAbsent(info.byId.responses.get('200')?.jsonSchema, record),
    ...findAbsent(listItemSchema(info.list), record),
  ]);
  return [...absent].map((pointer) => ({
    pointer,
    rule: 'present: the mock sends every declared field (null where nullable); presence is not stated',
    message: `${pointer} is declared by ${info.byId.operationId} or ${info.list.operationId} but absent`,
    source: 'inferred',
  }));
}

/** Checks a record for a family against the document; the taken record has canonical hrefs. */
export function checkRecord(
  info: RecordFamilyInfo,
  validators: Validators,
  given: unknown,
  baseUrl: string,
): CheckedRecord {
  if (given === null || typeof given !== 'object' || Array.isArray(given))
    return {
      ok: false,
      problems: [
        {
          pointer: '',
          rule: 'type: object',
          message: 'a record is a JSON object',
          source: 'documented',
        },
      ],
    };
  if (nestsDeeper(given, MAX_RECORD_DEPTH))
    return {
      ok: false,
      problems: [
        {
          pointer: '',
          rule: `nesting depth <= ${MAX_RECORD_DEPTH}`,
          message: `a record nests at most ${MAX_RECORD_DEPTH} levels`,
          source: 'inferred',
        },
      ],
    };
  const record = withCanonicalHrefs(given, baseUrl) as Record<string, unknown>;
  const byId = validators.checkResponseBody(info.byId, 200, record).map(problemOf);
  const said = new Set(byId.map((p) => `${p.pointer} ${p.message}`));
  const violations = [
    ...byId,
    ...listItemProblems(info, validators, record).filter(
      (p) => !said.has(`${p.pointer} ${p.message}`),
    ),
    ...absentProblems(info, record),
  ];
  const id = record[info.idField];
  if (typeof id !== 'string' || id === '')
    violations.unshift({
      pointer: `/${info.idField}`,
      rule: `required: ${info.idField} (a non-empty string: the record's identifier)`,
      message: `a ${info.family} record needs its identifier in ${info.idField}`,
      source: 'documented',
    });
  const refused = violations.filter((v) => v.source !== 'inferred');
  if (refused.length > 0 || typeof id !== 'string' || id === '')
    return { ok: false, problems: refused };
  return { ok: true, id, record, warnings: violations };
}

/** `"/images" type: array (documented)`: a problem as one line of a message (pointer, rule, kind of fact). */
export function problemLine(p: RecordProblem): string {
  return `"${p.pointer}" ${p.rule} (${p.source})`;
}
