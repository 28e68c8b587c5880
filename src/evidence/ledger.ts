/**
 * @module evidence/ledger
 * The fact ledger: the document's facts (facts.ts) against a profile (profile.ts). Each fact gets
 * a verdict: `confirmed` (with how many observations), `contradicted` (what was seen instead, with
 * counts and a request that shows it) or `unseen`. What the document does not say but the target
 * did consistently (an undeclared field, a small set of values, one string format, a status) is a
 * candidate fact. The `inferred` facts are grouped by the node that carries their mark, so each of
 * our choices gets one line. Pure: the same document and profile give the same ledger.
 */
import type { Source } from '../contract/index.js';
import type { DeclaredLocation, DocumentFact, DocumentFacts, FactType } from './facts.js';
import type { BodyProfile, Counts, LocationProfile, OperationProfile, Profile } from './profile.js';

export const LEDGER_FORMAT = 'web-data-evidence/1';

export type Verdict = 'confirmed' | 'contradicted' | 'unseen';

export interface LedgerEntry extends DocumentFact {
  verdict: Verdict;
  /** Observations behind the verdict: agreeing ones when confirmed, all looked at otherwise. */
  observations: number;
  /** Contradicted: what was seen instead, in words. */
  seen?: string;
  /** Contradicted: the counts behind `seen`. */
  counts?: Counts;
  /** A request that shows what was seen (`GET /packages`), when the profile kept one. */
  example?: string;
  /** Why a fact is unseen, or what a confirmation rests on. */
  note?: string;
}

export type CandidateKind = 'field' | 'values' | 'format' | 'status' | 'media-type';

export interface Candidate {
  id: string;
  kind: CandidateKind;
  operationId: string;
  status?: string;
  subject: string;
  /** What was seen, in words. */
  seen: string;
  counts: Counts;
  /** Observations behind it (records, values or responses). */
  observations: number;
  /** Seen in every record (a field) or every value (values, format) over enough observations. */
  consistent: boolean;
  /** A field: its JSON types and, when one, its string format; for a proposed property. */
  types?: string[];
  format?: string;
  /** A field: the written pointer of the parent's `properties` (where it would be declared). */
  propertiesAt?: string;
  example?: string;
}

/** One of our choices (a node marked `x-source: inferred`) and what the evidence says of it. */
export interface InferredChoice {
  markAt: string;
  verdict: Verdict;
  facts: number;
  confirmed: number;
  contradicted: number;
  unseen: number;
  /** Up to a few fact ids, contradicted first. */
  examples: string[];
}

export interface Ledger {
  format: typeof LEDGER_FORMAT;
  /** The run's name (a night, a date), as given. */
  label: string;
  /** Responses in the profile. */
  responses: number;
  summary: Record<Verdict, number> & { facts: number; candidates: number };
  inferred: InferredChoice[];
  facts: LedgerEntry[];
  candidates: Candidate[];
}

export interface LedgerOptions {
  label?: string;
  /** Fewest observations for a candidate to count as consistent. */
  minObservations?: number;
  /** Fewest values before a small set of strings is a candidate enum. */
  minValueObservations?: number;
  /** Most distinct strings a candidate enum may have. */
  maxCandidateValues?: number;
}

export const LEDGER_DEFAULTS = {
  minObservations: 3,
  minValueObservations: 20,
  maxCandidateValues: 8,
} as const;

const sum = (counts: Counts | undefined): number =>
  Object.values(counts ?? {}).reduce((a, b) => a + b, 0);

function describeCounts(counts: Counts): string {
  return Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
}

function parentOf(pointer: string): string {
  return pointer.slice(0, pointer.lastIndexOf('/'));
}

/** How many objects stood at a location (the records a field of theirs could be in). */
function objectsAt(body: BodyProfile, pointer: string): number {
  if (pointer === '') return body.locations['']?.types.object ?? 0;
  return body.locations[pointer]?.types.object ?? 0;
}

type Judged = Pick<LedgerEntry, 'verdict' | 'observations' | 'seen' | 'counts' | 'note'>;

const unseen = (note: string, observations = 0): Judged => ({
  verdict: 'unseen',
  observations,
  note,
});
const confirmed = (observations: number, note?: string): Judged => ({
  verdict: 'confirmed',
  observations,
  ...(note ? { note } : {}),
});
const contradicted = (observations: number, seen: string, counts: Counts): Judged => ({
  verdict: 'contradicted',
  observations,
  seen,
  counts,
});

function judgeList(fact: DocumentFact, op: OperationProfile | undefined): Judged {
  const list = op?.list;
  if (!list) return unseen('no list page seen');
  switch (fact.kind) {
    case 'default': {
      const pages = sum(list.defaultSizes);
      if (pages === 0) return unseen('no full page asked without limit');
      const other = Object.keys(list.defaultSizes).filter((k) => Number(k) !== fact.value);
      if (other.length === 0)
        return confirmed(pages, `${pages} full page(s) of ${String(fact.value)}`);
      return contradicted(
        pages,
        `full pages asked without limit held ${Object.entries(list.defaultSizes)
          .map(([size, n]) => `${size} records (${n} page${n === 1 ? '' : 's'})`)
          .join(', ')}`,
        list.defaultSizes,
      );
    }
    case 'maximum': {
      const honoured = list.largestLimitHonoured;
      if (honoured === undefined) return unseen('no page filled at the limit asked');
      if (honoured > Number(fact.value))
        return contradicted(1, `limit=${honoured} honoured`, { [String(honoured)]: 1 });
      if (honoured === fact.value) return confirmed(1, `limit=${honoured} honoured`);
      return unseen(`largest limit honoured ${honoured}`);
    }
    case 'offset': {
      const { informative, page, item } = list.offset;
      if (informative === 0) return unseen('no page told a page offset from an item offset');
      const own = fact.value === 'item' ? item : page;
      const otherUnit = fact.value === 'item' ? 'page' : 'item';
      const other = fact.value === 'item' ? page : item;
      if (own === informative) return confirmed(own);
      if (other > own)
        return contradicted(informative, `offset read as ${otherUnit}s on ${other} page(s)`, {
          page,
          item,
        });
      return unseen(`pages fit neither reading (${page} page, ${item} item of ${informative})`);
    }
    default: {
      // The default order.
      const { pages, fits, strict } = list.defaultOrder;
      if (pages === 0) return unseen('no page asked without an order');
      const want = String(fact.value);
      // The profile reads orders of a record's own scalar fields; a nested one it cannot judge.
      const field = want.slice(0, want.lastIndexOf(' '));
      const loc = op?.bodies['200']?.locations[`/data/*/${field}`];
      if (field.includes('.') || !loc || (loc.types.object ?? 0) + (loc.types.array ?? 0) > 0)
        return unseen(`the profile reads the order of top-level scalar fields, not ${field}`);
      if (fits[want] === pages)
        return confirmed(pages, `${strict[want] ?? 0} page(s) where the field varied`);
      const fitting = Object.keys(fits)
        .filter((k) => fits[k] === pages && (strict[k] ?? 0) > 0)
        .sort();
      return contradicted(
        pages,
        fitting.length > 0
          ? `the pages fit ${fitting.join(' or ')}; ${want} fits ${fits[want] ?? 0} of ${pages}`
          : `${want} fits ${fits[want] ?? 0} of ${pages} pages`,
        Object.fromEntries([
          [want, fits[want] ?? 0],
          ...fitting.map((k): [string, number] => [k, fits[k] ?? 0]),
        ]),
      );
    }
  }
}

function allowedType(seen: string, declared: readonly string[]): boolean {
  return declared.includes(seen) || (seen === 'integer' && declared.includes('number'));
}

function judgeLocation(fact: DocumentFact, body: BodyProfile | undefined): Judged {
  if (!body) return unseen(`no ${fact.status} body seen`);
  const loc: LocationProfile | undefined = body.locations[fact.subject];
  if (fact.kind === 'field') {
    const parents = objectsAt(body, parentOf(fact.subject));
    const n = loc?.count ?? 0;
    const required = (fact.value as { required: boolean }).required;
    if (parents === 0) return unseen('no record that could carry it');
    if (required && n < parents)
      return contradicted(parents, `missing from ${parents - n} of ${parents} record(s)`, {
        carried: n,
        missing: parents - n,
      });
    if (n === 0) return unseen(`in none of ${parents} record(s)`, parents);
    return confirmed(n, `in ${n} of ${parents} record(s)`);
  }
  if (!loc || loc.count === 0) return unseen('never seen');
  const nulls = loc.types.null ?? 0;
  switch (fact.kind) {
    case 'type': {
      const declared = fact.value as string[];
      const bad = Object.fromEntries(
        Object.entries(loc.types).filter(([t]) => t !== 'null' && !allowedType(t, declared)),
      );
      if (sum(bad) > 0) return contradicted(loc.count, describeCounts(bad), bad);
      const good = loc.count - nulls;
      return good > 0 ? confirmed(good) : unseen(`only null (${nulls})`, nulls);
    }
    case 'nullable':
      if (fact.value === false)
        return nulls > 0
          ? contradicted(loc.count, `null ×${nulls}`, { null: nulls })
          : confirmed(loc.count);
      return nulls > 0 ? confirmed(nulls) : unseen(`never null in ${loc.count}`, loc.count);
    case 'enum': {
      const allowed = new Set((fact.value as unknown[]).map(String));
      if (loc.values) {
        const bad = Object.fromEntries(Object.entries(loc.values).filter(([v]) => !allowed.has(v)));
        return sum(bad) > 0
          ? contradicted(loc.count, `values outside the enum: ${describeCounts(bad)}`, bad)
          : confirmed(sum(loc.values));
      }
      const numbers = (fact.value as unknown[]).filter((v): v is number => typeof v === 'number');
      if (loc.numbers && numbers.length > 0) {
        const inside =
          loc.numbers.min >= Math.min(...numbers) && loc.numbers.max <= Math.max(...numbers);
        const n = (loc.types.integer ?? 0) + (loc.types.number ?? 0);
        return inside
          ? confirmed(n, `from ${loc.numbers.min} to ${loc.numbers.max}`)
          : contradicted(n, `numbers from ${loc.numbers.min} to ${loc.numbers.max}`, {
              min: loc.numbers.min,
              max: loc.numbers.max,
            });
      }
      return unseen(
        loc.open ? 'values not kept (too many, too long or personal)' : 'no value seen',
      );
    }
    default: {
      // format
      const formats = loc.formats ?? {};
      const bad = Object.fromEntries(Object.entries(formats).filter(([f]) => f !== fact.value));
      if (sum(bad) > 0) return contradicted(sum(formats), describeCounts(bad), bad);
      return sum(formats) > 0 ? confirmed(sum(formats)) : unseen('no string seen');
    }
  }
}

function judge(fact: DocumentFact, op: OperationProfile | undefined): Judged {
  switch (fact.kind) {
    case 'operation': {
      const ok = Object.entries(op?.statuses ?? {})
        .filter(([s]) => s.startsWith('2'))
        .reduce((n, [, c]) => n + c, 0);
      if (ok > 0) return confirmed(ok, 'successful answers');
      return op
        ? unseen(`seen only with ${describeCounts(op.statuses)}`, op.count)
        : unseen('never asked');
    }
    case 'status': {
      const n = op?.statuses[fact.subject] ?? 0;
      return n > 0 ? confirmed(n) : unseen('never seen');
    }
    case 'media-type': {
      // The profile counts media types per operation: a status never seen confirms none of its own.
      if (fact.status && !op?.statuses[fact.status]) return unseen(`no ${fact.status} seen`);
      const n = op?.contentTypes[fact.subject] ?? 0;
      return n > 0 ? confirmed(n) : unseen('never seen');
    }
    case 'default':
    case 'maximum':
    case 'offset':
    case 'order':
      return judgeList(fact, op);
    default:
      return judgeLocation(fact, op?.bodies[fact.status ?? '']);
  }
}

/** The request that shows a fact's verdict: for a body fact its status's, else a success's. */
function exampleFor(fact: DocumentFact, op: OperationProfile | undefined): string | undefined {
  if (!op) return undefined;
  if (fact.status) return op.examples[fact.status];
  const success = Object.keys(op.examples)
    .filter((s) => s.startsWith('2'))
    .sort()[0];
  return success ? op.examples[success] : undefined;
}

function isDeclaredBelow(pointer: string, declared: Map<string, DeclaredLocation>): boolean {
  // Inside a declared open object (a free-form map), every key is declared.
  for (let at = parentOf(pointer); ; at = parentOf(at)) {
    if (declared.get(at)?.open) return true;
    if (at === '') return false;
  }
}

/** The ledger's bounds on what counts as a candidate. */
type CandidateBounds = Required<Omit<LedgerOptions, 'label'>>;

/** What the document declares, keyed for the candidate search. */
interface Declared {
  /** The declared locations of each response (`operationId status`), by pointer. */
  locations: Map<string, Map<string, DeclaredLocation>>;
  /** `operationId status` of each declared status. */
  statuses: Set<string>;
  /** `operationId mediaType` of each declared media type. */
  mediaTypes: Set<string>;
  /** `operationId status pointer` of each location with an enum, and with a format. */
  enums: Set<string>;
  formats: Set<string>;
}

/** The keys of the facts of one kind: `operationId subject`, with the status between when asked. */
function factKeys(
  facts: readonly DocumentFact[],
  kind: FactType,
  withStatus: boolean,
): Set<string> {
  return new Set(
    facts
      .filter((f) => f.kind === kind)
      .map((f) =>
        withStatus ? `${f.operationId} ${f.status} ${f.subject}` : `${f.operationId} ${f.subject}`,
      ),
  );
}

function declaredOf(documentFacts: DocumentFacts): Declared {
  const locations = new Map<string, Map<string, DeclaredLocation>>();
  for (const loc of documentFacts.locations) {
    const key = `${loc.operationId} ${loc.status}`;
    const map = locations.get(key) ?? new Map<string, DeclaredLocation>();
    map.set(loc.pointer, loc);
    locations.set(key, map);
  }
  const { facts } = documentFacts;
  return {
    locations,
    statuses: factKeys(facts, 'status', false),
    mediaTypes: factKeys(facts, 'media-type', false),
    enums: factKeys(facts, 'enum', true),
    formats: factKeys(facts, 'format', true),
  };
}

/** Statuses the target answered that the document does not declare. */
function statusCandidates(operationId: string, op: OperationProfile, d: Declared): Candidate[] {
  return Object.entries(op.statuses)
    .sort()
    .filter(([status]) => !d.statuses.has(`${operationId} ${status}`))
    .map(([status, n]) => ({
      id: `${operationId} status ${status}`,
      kind: 'status',
      operationId,
      subject: status,
      seen: `status ${status} ×${n}, not declared`,
      counts: { [status]: n },
      observations: n,
      consistent: false,
      example: op.examples[status],
    }));
}

/** Media types the target answered with that the document does not declare. */
function mediaTypeCandidates(operationId: string, op: OperationProfile, d: Declared): Candidate[] {
  return Object.entries(op.contentTypes)
    .sort()
    .filter(([media]) => media !== '' && !d.mediaTypes.has(`${operationId} ${media}`))
    .map(([media, n]) => ({
      id: `${operationId} media-type ${media}`,
      kind: 'media-type',
      operationId,
      subject: media,
      seen: `${media} ×${n}, not declared`,
      counts: { [media]: n },
      observations: n,
      consistent: false,
    }));
}

/** One location the profile saw in one response's bodies. */
interface Seen {
  operationId: string;
  op: OperationProfile;
  status: string;
  pointer: string;
  loc: LocationProfile;
}

/** A field the document does not declare, in an object it does (not a free-form map). */
function fieldCandidate(
  s: Seen,
  body: BodyProfile,
  declared: Map<string, DeclaredLocation>,
  o: CandidateBounds,
): Candidate | undefined {
  const { operationId, status, pointer, loc } = s;
  const parent = declared.get(parentOf(pointer));
  if (!parent || pointer === '' || isDeclaredBelow(pointer, declared)) return undefined;
  const parents = objectsAt(body, parentOf(pointer));
  const formats = Object.keys(loc.formats ?? {});
  return {
    id: `${operationId} field ${status} ${pointer}`,
    kind: 'field',
    operationId,
    status,
    subject: pointer,
    seen: `in ${loc.count} of ${parents} record(s); ${describeCounts(loc.types)}${
      formats.length ? `; formats ${describeCounts(loc.formats!)}` : ''
    }`,
    counts: { carried: loc.count, records: parents },
    observations: loc.count,
    consistent: parents >= o.minObservations && loc.count >= parents,
    types: Object.keys(loc.types).sort(),
    ...(formats.length === 1 && formats[0] !== 'other' ? { format: formats[0] } : {}),
    propertiesAt: parent.propertiesAt,
    example: s.op.examples[status],
  };
}

/** A declared string without an enum that took only a few values, often enough to tell. */
function valuesCandidate(s: Seen, strings: number, o: CandidateBounds): Candidate | undefined {
  const { operationId, status, pointer, loc } = s;
  if (!loc.values) return undefined;
  const distinct = Object.keys(loc.values).length;
  if (distinct > o.maxCandidateValues || strings < o.minValueObservations || distinct >= strings)
    return undefined;
  return {
    id: `${operationId} values ${status} ${pointer}`,
    kind: 'values',
    operationId,
    status,
    subject: pointer,
    seen: `only ${describeCounts(loc.values)}`,
    counts: { ...loc.values },
    observations: strings,
    consistent: true,
    example: s.op.examples[status],
  };
}

/** A declared string without a format whose values all had one known format. */
function formatCandidate(s: Seen, strings: number, o: CandidateBounds): Candidate | undefined {
  const { operationId, status, pointer, loc } = s;
  const formats = Object.keys(loc.formats ?? {});
  if (formats.length !== 1 || formats[0] === 'other') return undefined;
  return {
    id: `${operationId} format ${status} ${pointer}`,
    kind: 'format',
    operationId,
    status,
    subject: pointer,
    seen: `always ${formats[0]} (${strings} string(s))`,
    counts: { ...loc.formats },
    observations: strings,
    consistent: strings >= o.minObservations,
    format: formats[0],
    example: s.op.examples[status],
  };
}

/** Candidates from one location: an undeclared field, or a declared string's values and format. */
function locationCandidates(
  s: Seen,
  body: BodyProfile,
  declared: Map<string, DeclaredLocation>,
  d: Declared,
  o: CandidateBounds,
): Candidate[] {
  if (!declared.get(s.pointer)) {
    const field = fieldCandidate(s, body, declared, o);
    return field ? [field] : [];
  }
  const strings = s.loc.types.string ?? 0;
  if (strings === 0) return [];
  const key = `${s.operationId} ${s.status} ${s.pointer}`;
  const values = d.enums.has(key) ? undefined : valuesCandidate(s, strings, o);
  const format = d.formats.has(key) ? undefined : formatCandidate(s, strings, o);
  return [values, format].filter((c): c is Candidate => c !== undefined);
}

/** Candidates from the bodies of the statuses the document declares. */
function bodyCandidates(
  operationId: string,
  op: OperationProfile,
  d: Declared,
  o: CandidateBounds,
): Candidate[] {
  const out: Candidate[] = [];
  for (const [status, body] of Object.entries(op.bodies).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    const declared = d.locations.get(`${operationId} ${status}`);
    if (!declared) continue; // an undeclared status: a status candidate
    for (const pointer of Object.keys(body.locations).sort()) {
      const seen: Seen = { operationId, op, status, pointer, loc: body.locations[pointer] };
      out.push(...locationCandidates(seen, body, declared, d, o));
    }
  }
  return out;
}

function candidatesOf(
  documentFacts: DocumentFacts,
  profile: Profile,
  o: CandidateBounds,
): Candidate[] {
  const declared = declaredOf(documentFacts);
  return Object.keys(profile.operations)
    .sort()
    .flatMap((operationId) => {
      const op = profile.operations[operationId];
      return [
        ...statusCandidates(operationId, op, declared),
        ...mediaTypeCandidates(operationId, op, declared),
        ...bodyCandidates(operationId, op, declared, o),
      ];
    });
}

function inferredChoices(entries: readonly LedgerEntry[]): InferredChoice[] {
  const groups = new Map<string, LedgerEntry[]>();
  for (const e of entries.filter((x) => x.source === 'inferred')) {
    const list = groups.get(e.markAt) ?? [];
    list.push(e);
    groups.set(e.markAt, list);
  }
  return [...groups]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([markAt, list]) => {
      const count = (v: Verdict) => list.filter((e) => e.verdict === v).length;
      const verdict: Verdict =
        count('contradicted') > 0
          ? 'contradicted'
          : count('confirmed') > 0
            ? 'confirmed'
            : 'unseen';
      const order: Verdict[] = ['contradicted', 'confirmed', 'unseen'];
      return {
        markAt,
        verdict,
        facts: list.length,
        confirmed: count('confirmed'),
        contradicted: count('contradicted'),
        unseen: count('unseen'),
        examples: [...list]
          .sort((a, b) => order.indexOf(a.verdict) - order.indexOf(b.verdict))
          .slice(0, 3)
          .map((e) => e.id),
      };
    });
}

/** Judges every fact of the document against a profile. */
export function buildLedger(
  documentFacts: DocumentFacts,
  profile: Profile,
  options: LedgerOptions = {},
): Ledger {
  const o = {
    minObservations: options.minObservations ?? LEDGER_DEFAULTS.minObservations,
    minValueObservations: options.minValueObservations ?? LEDGER_DEFAULTS.minValueObservations,
    maxCandidateValues: options.maxCandidateValues ?? LEDGER_DEFAULTS.maxCandidateValues,
  };
  const facts: LedgerEntry[] = documentFacts.facts.map((fact) => {
    const op = profile.operations[fact.operationId];
    const judged = judge(fact, op);
    const example = judged.verdict === 'unseen' ? undefined : exampleFor(fact, op);
    return { ...fact, ...judged, ...(example ? { example } : {}) };
  });
  const candidates = candidatesOf(documentFacts, profile, o);
  const count = (v: Verdict) => facts.filter((f) => f.verdict === v).length;
  return {
    format: LEDGER_FORMAT,
    label: options.label ?? '',
    responses: profile.count,
    summary: {
      facts: facts.length,
      confirmed: count('confirmed'),
      contradicted: count('contradicted'),
      unseen: count('unseen'),
      candidates: candidates.length,
    },
    inferred: inferredChoices(facts),
    facts,
    candidates,
  };
}

/** Kinds in the order a reader meets them. */
export const FACT_KINDS: readonly FactType[] = [
  'operation',
  'status',
  'media-type',
  'default',
  'maximum',
  'offset',
  'order',
  'field',
  'type',
  'nullable',
  'enum',
  'format',
];

export type { Source };
