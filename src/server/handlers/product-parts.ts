/**
 * @module handlers/product-parts
 * Parts, their parametric attributes, parametric search and competitor cross-reference.
 */
import type { InputProblem } from '../../contract/index.js';
import type { ProductPart, ProductPartAttribute } from '../../fixtures/dataset.js';
import { badRequest } from '../errors.js';
import { byIdHandler, envelope, listHandler, sendJson, type Handler } from './respond.js';

export const listProductParts: Handler = listHandler((api) => api.listings.productParts);

export const getProductPart: Handler = byIdHandler((api) => api.dataset.productParts, 'orderable_id', 'Product part');

export const listProductPartAttributes: Handler = listHandler(
  (api) => api.listings.attributes,
  (c) => {
    const productId = c.var.input.query.productId as string | undefined;
    if (productId === undefined) return undefined;
    const product = c.var.api.dataset.products.indexOf(productId);
    return { omit: 'productId', positions: product === undefined ? null : c.var.api.dataset.attributesOfProduct(product) };
  },
);

export const getProductPartAttribute: Handler = byIdHandler((api) => api.dataset.attributes, 'productPartAttributeId', 'Product part attribute');

type Scalar = number | string | boolean;
interface SearchFilter {
  attribute: string;
  operator: 'eq' | 'gt' | 'gte' | 'lt' | 'lte' | 'range';
  value: Scalar | [number, number];
}
interface SearchRequest {
  productId: string;
  filters: SearchFilter[];
  limit: number;
  offset: number;
}

/** Checks filters against the attributes they name: existence, allowed operator, value type. */
function checkFilters(filters: SearchFilter[], attributeOf: (id: string) => ProductPartAttribute | undefined): InputProblem[] {
  const problems: InputProblem[] = [];
  filters.forEach((filter, k) => {
    const at = (field: string) => `/filters/${k}/${field}`;
    const attribute = attributeOf(filter.attribute);
    if (!attribute) {
      problems.push({ in: 'body', name: at('attribute'), rule: 'a productPartAttributeId (GET /product-parts/attributes)', message: `unknown attribute "${filter.attribute}"`, received: filter.attribute });
      return;
    }
    if (!attribute.operators.includes(filter.operator)) {
      problems.push({ in: 'body', name: at('operator'), rule: `operators of ${attribute.productPartAttributeId}: ${attribute.operators.join(', ')}`, message: `operator "${filter.operator}" not allowed for attribute "${attribute.name}"`, received: filter.operator });
      return;
    }
    const isRange = filter.operator === 'range';
    if (isRange !== Array.isArray(filter.value)) {
      problems.push({ in: 'body', name: at('value'), rule: isRange ? 'range takes [min, max]' : `${filter.operator} takes one ${attribute.dataType}`, message: `value does not fit operator "${filter.operator}"`, received: filter.value });
      return;
    }
    const values = Array.isArray(filter.value) ? filter.value : [filter.value];
    if (values.some((v) => typeof v !== attribute.dataType)) {
      problems.push({ in: 'body', name: at('value'), rule: `type: ${attribute.dataType}`, message: `attribute "${attribute.name}" takes ${attribute.dataType} values`, received: filter.value });
    } else if (Array.isArray(filter.value) && filter.value[0] > filter.value[1]) {
      problems.push({ in: 'body', name: at('value'), rule: 'range [min, max] with min <= max', message: 'range minimum exceeds maximum', received: filter.value });
    }
  });
  return problems;
}

function satisfies(part: ProductPart, filter: SearchFilter): boolean {
  const parametric = part.parametrics.find((p) => p.productPartAttributeId === filter.attribute);
  if (!parametric) return false;
  const v = parametric.value;
  const target = filter.value;
  switch (filter.operator) {
    case 'eq':
      return typeof v === 'string' && typeof target === 'string' ? v.toLowerCase() === target.toLowerCase() : v === target;
    case 'gt':
      return typeof v === 'number' && v > (target as number);
    case 'gte':
      return typeof v === 'number' && v >= (target as number);
    case 'lt':
      return typeof v === 'number' && v < (target as number);
    case 'lte':
      return typeof v === 'number' && v <= (target as number);
    case 'range': {
      const [min, max] = target as [number, number];
      return typeof v === 'number' && v >= min && v <= max;
    }
  }
}

export const searchProductParts: Handler = (c) => {
  const { api } = c.var;
  const request = c.var.body as SearchRequest;
  const { dataset } = api;
  const product = dataset.products.indexOf(request.productId);
  if (product === undefined) {
    throw badRequest([{ in: 'body', name: '/productId', rule: 'an existing productId', message: `unknown product "${request.productId}"`, received: request.productId }]);
  }
  const problems = checkFilters(request.filters, (id) => {
    const i = dataset.attributes.indexOf(id);
    return i === undefined ? undefined : dataset.attributes.record(i);
  });
  if (problems.length > 0) throw badRequest(problems);
  const candidates = api.listings.productParts.matching([{ field: 'orderableId', direction: 'asc' }], [], dataset.partsOfProduct(product));
  const matches = Int32Array.from([...candidates].filter((i) => request.filters.every((f) => satisfies(dataset.productParts.record(i), f))));
  const offset = request.offset * request.limit;
  const positions = matches.subarray(Math.min(offset, matches.length), Math.min(offset + request.limit, matches.length));
  return sendJson(c, envelope(api, dataset.productParts, { positions, offset, limit: request.limit, total: matches.length, hasMore: offset + request.limit < matches.length }));
};

export const crossReferenceProductParts: Handler = (c) => {
  const { partNumbers } = c.get('body') as { partNumbers: string[] };
  // c.var copies every context variable on each read: read the dataset once, not once per number.
  const { dataset } = c.get('api');
  const data = partNumbers.map((pn) => dataset.crossReference(pn));
  return sendJson(c, JSON.stringify({ data }));
};
