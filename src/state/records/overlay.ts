/**
 * @module state/records/overlay
 * Record edits over the immutable dataset: a test puts a record (a new identifier is added, a
 * known one replaced in place) or removes one, and the dataset answers as if it had always been
 * so. Edits are plain data, folded in order; a family without edits is the seed's own collection
 * object, so its indexes and cached answers stay. Positions never move: a replaced record keeps
 * its position, a removed one leaves a hole lists skip (`present`), an added one takes the next
 * position after the family's end. So a cached answer keyed by position stays right for every
 * record an edit did not touch.
 */
import type {
  Collection,
  CrossReferenceResult,
  Dataset,
  DocumentFile,
} from '../../dataset/dataset.js';
import { minimalPdf } from '../../dataset/pdf.js';
import type { RecordEditEntry, RecordFamily } from '../../api/types.js';
import { readField } from '../../dataset/record-fields.js';

/** The families a test may edit (the dataset's collections of the same name). */
export const RECORD_FAMILIES = [
  'products',
  'productParts',
  'documents',
  'boardsKits',
  'packages',
  'softwareTools',
] as const satisfies readonly RecordFamily[];
/** Compile-time: a family of the public type missing from the list fails here. */
const everyFamilyListed: Record<
  Exclude<RecordFamily, (typeof RECORD_FAMILIES)[number]>,
  never
> = {};
void everyFamilyListed;
export type { RecordFamily, RecordEditEntry };

export function isRecordFamily(name: string): name is RecordFamily {
  return (RECORD_FAMILIES as readonly string[]).includes(name);
}

/** One edit, as the store keeps it and every instance folds it: plain JSON. */
export type RecordEdit =
  | { op: 'put'; family: RecordFamily; id: string; record: Record<string, unknown> }
  | { op: 'remove'; family: RecordFamily; id: string };

/** What the edits did to one family, by position. */
interface FamilyEdits {
  records: Map<number, Record<string, unknown>>;
  removed: Set<number>;
  /** Identifiers of added records, by position - base size. */
  addedIds: string[];
  added: Map<string, number>;
}

function foldFamily(base: Collection<unknown>, edits: readonly RecordEdit[]): FamilyEdits {
  const folded: FamilyEdits = {
    records: new Map(),
    removed: new Set(),
    addedIds: [],
    added: new Map(),
  };
  for (const edit of edits) {
    let position = base.indexOf(edit.id) ?? folded.added.get(edit.id);
    if (edit.op === 'put') {
      if (position === undefined) {
        position = base.size + folded.addedIds.length;
        folded.added.set(edit.id, position);
        folded.addedIds.push(edit.id);
      }
      folded.records.set(position, edit.record);
      folded.removed.delete(position);
    } else if (position !== undefined) {
      folded.records.delete(position);
      folded.removed.add(position);
    }
  }
  return folded;
}

function overlayCollection<T>(
  base: Collection<T>,
  family: RecordFamily,
  edits: FamilyEdits,
): Collection<T> {
  const size = base.size + edits.addedIds.length;
  const present = (i: number) => !edits.removed.has(i) && (base.present?.(i) ?? true);
  return {
    name: base.name,
    size,
    fields: base.fields,
    id: (i) => (i < base.size ? base.id(i) : edits.addedIds[i - base.size]),
    indexOf(id) {
      const position = base.indexOf(id) ?? edits.added.get(id);
      return position === undefined || !present(position) ? undefined : position;
    },
    record(i) {
      const edited = edits.records.get(i);
      if (edited) return edited as T;
      if (i >= base.size || !present(i))
        throw new RangeError(`${base.name}: no record at position ${i} (removed or never added)`);
      return base.record(i);
    },
    field(i, name) {
      const edited = edits.records.get(i);
      if (edited) return readField(family, edited, name);
      return i < base.size && present(i) ? base.field(i, name) : null;
    },
    present,
  };
}

/** The positions of one family an edit touched: their cached answers must go. */
export type TouchedPositions = ReadonlyMap<RecordFamily, readonly number[]>;

export interface Overlay {
  dataset: Dataset;
  touched: TouchedPositions;
}

function text(record: Record<string, unknown>, field: string): string | undefined {
  const value = record[field];
  return typeof value === 'string' ? value : undefined;
}

/** A cross-reference answer with removed matches left out and edited ones as the records now say. */
function crossReferenceOver(
  dataset: Pick<Dataset, 'products' | 'productParts'>,
  result: CrossReferenceResult,
): CrossReferenceResult {
  const results = (result.results ?? []).flatMap((match) => {
    const orderableId = match.orderableId;
    if (orderableId) {
      const i = dataset.productParts.indexOf(orderableId);
      if (i === undefined) return [];
      const part = dataset.productParts.record(i) as unknown as Record<string, unknown>;
      return [
        {
          ...match,
          genericId: text(part, 'genericId') ?? match.genericId,
          status: text(part, 'status') ?? match.status,
          description: text(part, 'description') ?? match.description,
        },
      ];
    }
    const p = match.genericId === undefined ? undefined : dataset.products.indexOf(match.genericId);
    if (p === undefined) return [];
    const product = dataset.products.record(p) as unknown as Record<string, unknown>;
    return [{ ...match, description: text(product, 'title') ?? match.description }];
  });
  return { ...result, results };
}

/** A document file for a record the generator never built: a one-page PDF naming it. */
function addedDocumentFile(record: Record<string, unknown>, id: string): DocumentFile {
  const title = text(record, 'title') ?? id;
  return {
    bytes: minimalPdf(title, [`Document ${id}, added by a test.`]),
    contentType: 'application/pdf',
    filename: text(record, 'filename') ?? `${id}.pdf`,
  };
}

/**
 * The dataset with the edits applied, and the positions they touched per family. `base` is never
 * changed; the same edits over the same base always give the same answers.
 */
export function overlayDataset(base: Dataset, edits: readonly RecordEdit[]): Overlay {
  const byFamily = new Map<RecordFamily, FamilyEdits>();
  for (const family of RECORD_FAMILIES) {
    const own = edits.filter((e) => e.family === family);
    if (own.length > 0) byFamily.set(family, foldFamily(base[family], own));
  }
  const touched = new Map<RecordFamily, number[]>();
  for (const [family, folded] of byFamily)
    touched.set(family, [...new Set([...folded.records.keys(), ...folded.removed])]);
  if (byFamily.size === 0) return { dataset: base, touched };

  const collection = <F extends RecordFamily>(family: F): Dataset[F] => {
    const folded = byFamily.get(family);
    return folded
      ? (overlayCollection(base[family] as Collection<unknown>, family, folded) as Dataset[F])
      : base[family];
  };
  const products = collection('products');
  const productParts = collection('productParts');
  const documents = collection('documents');
  const parts = byFamily.get('productParts');
  const docs = byFamily.get('documents');

  // A document's second identifier: the edited records' DCP ids replace their seed ones.
  const dcpIds = new Map<string, number | undefined>();
  if (docs) {
    for (const i of touched.get('documents') ?? [])
      if (i < base.documents.size) dcpIds.set(base.documents.record(i).dcpDocumentId, undefined);
    for (const [i, record] of docs.records) {
      const dcp = text(record, 'dcpDocumentId');
      if (dcp !== undefined) dcpIds.set(dcp, i);
    }
  }

  const dataset: Dataset = Object.freeze({
    ...base,
    products,
    productParts,
    documents,
    boardsKits: collection('boardsKits'),
    packages: collection('packages'),
    softwareTools: collection('softwareTools'),
    partsOfProduct(productIndex: number): readonly number[] {
      const seed = productIndex < base.products.size ? base.partsOfProduct(productIndex) : [];
      if (!parts) return seed;
      const productId = products.id(productIndex);
      const edited = [...parts.records]
        .filter(([, record]) => record.genericId === productId)
        .map(([i]) => i);
      return [...seed.filter((k) => !parts.records.has(k) && !parts.removed.has(k)), ...edited];
    },
    attributesOfProduct: (productIndex: number) =>
      productIndex < base.products.size ? base.attributesOfProduct(productIndex) : [],
    documentByDcpId(id: string) {
      const position = dcpIds.has(id) ? dcpIds.get(id) : base.documentByDcpId(id);
      return position === undefined || documents.indexOf(documents.id(position)) === undefined
        ? undefined
        : position;
    },
    documentFile(i: number): DocumentFile {
      const record = docs?.records.get(i);
      return record && i >= base.documents.size
        ? addedDocumentFile(record, documents.id(i))
        : base.documentFile(i);
    },
    crossReference:
      parts || byFamily.has('products')
        ? (partNumber: string) =>
            crossReferenceOver({ products, productParts }, base.crossReference(partNumber))
        : base.crossReference,
  });
  return { dataset, touched };
}
