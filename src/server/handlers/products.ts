/**
 * @module handlers/products
 * GET /products and GET /products/{product_id}. The by-ID endpoint serves the newest product
 * shape the served release's document allows (1.0.0 before release 1.3.0, 1.2.0 from it on).
 */
import type { Operation, Schema } from '../../contract/index.js';
import type { Product } from '../../dataset/dataset.js';
import type { ApiContext } from '../context.js';
import {
  answerText,
  encodedJson,
  findOr404,
  listHandler,
  okJson,
  recordJson,
  type Handler,
} from './respond.js';

type DocumentReference = Product['featuredDocuments'][number];

/** The `x-shape-version`s the operation's 200 schema offers, newest last. */
export function productShapes(op: Operation): string[] {
  const schema = op.responses.get('200')?.jsonSchema;
  const branches = ((schema?.oneOf as Schema[] | undefined) ?? [schema ?? {}]).map((s) =>
    String(s['x-shape-version'] ?? '1.0.0'),
  );
  return branches.sort();
}

/** The 1.2.0 shape: no additionalDetails or relatedProducts; document references need a DCP id. */
function shape120(api: ApiContext, i: number): unknown {
  const {
    additionalDetails: _details,
    relatedProducts: _related,
    ...common
  } = api.dataset.products.record(i);
  const strict = (refs: DocumentReference[]) =>
    refs.filter((ref) => typeof ref.dcpDocumentId === 'string');
  return {
    ...common,
    featuredDocuments: strict(common.featuredDocuments),
    relatedDocuments: strict(common.relatedDocuments),
    relatedDocumentsSecondary: strict(common.relatedDocumentsSecondary),
  };
}

export const listProducts: Handler = listHandler((api) => api.listings.products);

export const getProduct: Handler = (api, operation, input) => {
  const id = input.path.product_id;
  const i = findOr404(api.dataset.products.indexOf(id), 'Product', id);
  const newest = productShapes(operation).at(-1);
  if (newest !== '1.2.0')
    return okJson(
      encodedJson(api, `record:${api.dataset.products.name}:${i}`, () =>
        recordJson(api, api.dataset.products, i),
      ),
    );
  return okJson(
    encodedJson(api, `product-1.2.0:${i}`, () => answerText(api, operation, shape120(api, i))),
  );
};
