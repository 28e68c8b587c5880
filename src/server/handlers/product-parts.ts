/**
 * @module handlers/product-parts
 * Parts, their parametric attributes, parametric search and competitor cross-reference.
 */
import type { Operation } from '../../contract/index.js';
import type { components } from '../../contract/types.gen.js';
import type { ProductPart } from '../../dataset/dataset.js';
import { links } from '../../dataset/links.js';
import type { ApiContext } from '../context.js';
import { apiError, badRequest, messages } from '../errors.js';
import { applied, filterProblems, satisfies, type SearchFilter } from './part-search.js';
import { answerText, byIdHandler, listHandler, postJson, type Handler } from './respond.js';

type S = components['schemas'];

/**
 * The `part_status` forms of the reference's filter enum that name the record status `NRND`
 * (its record enum has only `NRND`): the filter treats them as one status.
 */
const NRND_SPELLINGS: ReadonlySet<string> = new Set([
  'Not Recommended for New Designs',
  'Not Recommended<br /> for New Designs',
]);
const NRND: S['PartStatus'] = 'NRND';

const listParts = listHandler((api) => api.listings.productParts);

export const listProductParts: Handler = (api, operation, input) => {
  const status = input.query.part_status;
  return typeof status === 'string' && NRND_SPELLINGS.has(status)
    ? listParts(api, operation, { ...input, query: { ...input.query, part_status: NRND } })
    : listParts(api, operation, input);
};

export const getProductPart: Handler = byIdHandler(
  (api) => api.dataset.productParts,
  'orderable_id',
  'Product part',
);

export const listProductPartAttributes: Handler = listHandler(
  (api) => api.listings.attributes,
  (api, input) => {
    const productId = input.query.productId as string | undefined;
    if (productId === undefined) return undefined;
    const product = api.dataset.products.indexOf(productId);
    return {
      omit: 'productId',
      positions: product === undefined ? null : api.dataset.attributesOfProduct(product),
    };
  },
);

export const getProductPartAttribute: Handler = byIdHandler(
  (api) => api.dataset.attributes,
  'productPartAttributeId',
  'Product part attribute',
);

interface SearchRequest {
  productId: string;
  filters?: SearchFilter[];
  limit: number;
  offset: number;
}

/** The reduced record a search answers with (the reference's search item). */
function searchItem(part: ProductPart): S['SearchResultPart'] {
  return {
    orderableId: part.orderableId,
    genericId: part.genericId,
    status: part.status,
    parametricAttributes: (part.parametricAttributes ?? []).map(
      ({ productPartAttributeId, attributeName, attributeValues, href }) => ({
        productPartAttributeId,
        attributeName,
        attributeValues,
        href,
      }),
    ),
    href: links.productPart(part.orderableId),
  };
}

/** The search answer's JSON text (a 404 or 400 is thrown, never returned). */
function searchText(api: ApiContext, operation: Operation, request: SearchRequest): string {
  const { dataset } = api;
  const product = dataset.products.indexOf(request.productId);
  if (product === undefined) throw apiError(404, messages.notFound('Product', request.productId));
  const filters = (request.filters ?? []).map(applied);
  const problems = filters.flatMap((filter, k) => {
    const i = dataset.attributes.indexOf(filter.productPartAttributeId);
    return filterProblems(filter, k, i === undefined ? undefined : dataset.attributeSearchRule(i));
  });
  if (problems.length > 0) throw badRequest(problems);
  const valuesOf = (part: ProductPart, attributeId: string): readonly unknown[] =>
    part.parametricAttributes?.find((a) => a.productPartAttributeId === attributeId)
      ?.attributeValues ?? [];
  // A product's parts (a handful) in part-number order; every filter must hold (AND).
  const candidates = api.listings.productParts.matching(
    [{ field: 'orderableId', direction: 'asc' }],
    [],
    dataset.partsOfProduct(product),
  );
  const matches: ProductPart[] = [];
  for (const i of candidates) {
    const part = dataset.productParts.record(i);
    if (filters.every((f) => satisfies(valuesOf(part, f.productPartAttributeId), f)))
      matches.push(part);
  }
  const offset = request.offset * request.limit;
  const page = matches.slice(offset, offset + request.limit);
  const body: S['ProductPartSearchResponse'] = {
    data: page.map(searchItem),
    pagination: {
      offset,
      limit: request.limit,
      total: matches.length,
      has_more: offset + request.limit < matches.length,
    },
    filters: { productId: request.productId, applied: filters },
  };
  return answerText(api, operation, body);
}

export const searchProductParts: Handler = (api, operation, { body }) =>
  postJson(api, operation, body, () => searchText(api, operation, body as SearchRequest));

export const crossReferenceProductParts: Handler = (api, operation, { body }) =>
  postJson(api, operation, body, () => {
    const { partNumbers } = body as S['CrossReferenceRequest'];
    const answer: S['CrossReferenceResponse'] = {
      data: partNumbers.map((pn) => api.dataset.crossReference(pn)),
    };
    return answerText(api, operation, answer);
  });
