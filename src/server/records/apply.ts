/**
 * @module records/apply
 * Serving a log of record edits: a new environment value with the overlay of the edits over the
 * environment's seed dataset and list indexes derived for the families an edit touched (the others
 * keep theirs); the environment served before is left as it was (a request that holds it answers
 * from it to its end). The cached answers that could show a touched record are dropped from the
 * caches the values share: each touched record's own text and by-ID bodies, the family's list
 * pages, and the search and cross-reference answers when parts or products changed. Every other
 * cached answer stays, byte for byte. The first edited value has caches of its own, never the
 * start's, which the mock's scopes share.
 */
import { overlayDataset, type RecordEdit, type RecordFamily } from '../../state/records/overlay.js';
import { LIST_OPERATION, listingsOf, withOwnCaches, type ApiContext } from '../context.js';
import { withCanonicalHrefs } from './record-schema.js';

/** Cached answers that read a family beyond its own records (operationIds, as the handlers key them). */
const ANSWERS_READING: Partial<Record<RecordFamily, readonly string[]>> = {
  products: ['searchProductParts', 'crossReferenceProductParts', 'listProductPartAttributes'],
  productParts: ['searchProductParts', 'crossReferenceProductParts'],
};

/** The by-ID key prefixes a touched record's cached bodies live under (respond.ts, products.ts). */
function recordKeys(name: string, family: RecordFamily, i: number): string[] {
  return family === 'products'
    ? [`record:${name}:${i}`, `product-1.2.0:${i}`]
    : [`record:${name}:${i}`];
}

function dropPrefixes(
  cache: { keys(): Iterable<string>; delete(key: string): boolean },
  prefixes: string[],
): void {
  if (prefixes.length === 0) return;
  for (const key of [...cache.keys()])
    if (prefixes.some((prefix) => key.startsWith(prefix))) cache.delete(key);
}

/** The families and positions either of two overlays touched. */
function union(
  a: ReadonlyMap<RecordFamily, readonly number[]>,
  b: ReadonlyMap<RecordFamily, readonly number[]>,
): Map<RecordFamily, number[]> {
  const all = new Map<RecordFamily, number[]>();
  for (const map of [a, b])
    for (const [family, positions] of map)
      all.set(family, [...new Set([...(all.get(family) ?? []), ...positions])]);
  return all;
}

/** An environment as served with record edits: the value, its edits (hrefs made its own) and the positions they touched. */
export interface Served {
  readonly api: ApiContext;
  readonly edits: readonly RecordEdit[];
  readonly touched: ReadonlyMap<RecordFamily, readonly number[]>;
}

/**
 * The positions the new edits changed, per family (a put's record, a removal's hole), and every
 * other family with edits with none: its collection is a new object, its order stays.
 */
function changedBy(
  edits: readonly RecordEdit[],
  before: ApiContext['dataset'],
  after: ApiContext['dataset'],
  edited: Iterable<RecordFamily>,
): Map<RecordFamily, number[]> {
  const changed = new Map<RecordFamily, number[]>();
  for (const family of edited) changed.set(family, []);
  for (const { family, id } of edits) {
    const position = before[family].indexOf(id) ?? after[family].indexOf(id);
    if (position === undefined) continue;
    const positions = changed.get(family) ?? [];
    if (!positions.includes(position)) positions.push(position);
    changed.set(family, positions);
  }
  return changed;
}

/**
 * The environment with the edits over its seed, from `before` (what is served now; undefined: the
 * environment as built at start, `api`, no edits served yet): `fresh`, `edits` are the whole log
 * (it was read from its start: first read, or cleared since) and everything an earlier log
 * touched is undone; otherwise `edits` came after those already served, and only what they touch
 * is derived again and dropped from the caches: an edit costs the same whatever came before it.
 */
export function applyRecordEdits(
  start: ApiContext,
  before: Served | undefined,
  edits: readonly RecordEdit[],
  { fresh }: { fresh: boolean },
): Served {
  const baseUrl = start.seed.options.baseUrl;
  const local = edits.map((edit) =>
    edit.op === 'put'
      ? { ...edit, record: withCanonicalHrefs(edit.record, baseUrl) as Record<string, unknown> }
      : edit,
  );
  const all = fresh || !before ? local : before.edits.concat(local);
  // The first edited value takes caches of its own: the start's are shared (context.ts withOwnCaches).
  const current = before?.api ?? start;
  const api =
    all.length > 0 && current.encoded === start.encoded ? withOwnCaches(current) : current;
  const overlay = overlayDataset(api.seed, all);
  const touched =
    fresh || !before
      ? union(before?.touched ?? new Map(), overlay.touched)
      : changedBy(local, api.dataset, overlay.dataset, overlay.touched.keys());
  const served: ApiContext = {
    ...api,
    dataset: overlay.dataset,
    listings: listingsOf(overlay.dataset, api.listings, touched),
  };
  dropCached(api, touched);
  return { api: served, edits: all, touched: overlay.touched };
}

/** Drops the cached answers that could show a touched record (the caches every value of the environment shares). */
function dropCached(api: ApiContext, touched: ReadonlyMap<RecordFamily, readonly number[]>): void {
  const prefixes: string[] = [];
  for (const [family, positions] of touched) {
    if (positions.length === 0) continue;
    const name = api.seed[family].name;
    for (const i of positions)
      for (const key of recordKeys(name, family, i)) {
        api.recordTexts.delete(key);
        api.encoded.delete(key);
      }
    prefixes.push(`list:${LIST_OPERATION[family]}:`);
    for (const operationId of ANSWERS_READING[family] ?? [])
      prefixes.push(
        operationId.startsWith('list') ? `list:${operationId}:` : `post:${operationId}:`,
      );
  }
  dropPrefixes(api.encoded, prefixes);
}
