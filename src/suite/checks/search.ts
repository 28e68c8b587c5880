/**
 * @module checks/search
 * Parametric search does what it says, whenever the target accepts a search: every part returned
 * belongs to the product searched (`genericId`), satisfies every filter under its operator (`eq`
 * against any of `values`, `gt`/`gte`/`lt`/`lte` against any of them, `range` inclusive on
 * `min`/`max`; filters combine with AND), and, when the product's parts fit one page, a filter
 * loses no part that satisfies it (so a filter that excludes nothing loses nothing). Every operator
 * is tried on a numeric attribute and `eq` (one value and an OR of two) on a text attribute, with
 * attributes from the target's own catalogue for that product and values its parts carry. The
 * names of the body's members are the reference's (`x-source: reference`) and are read from the
 * document: a body schema without them skips the check, saying so. A search in a product that does
 * not exist is a 404 (reference).
 */
import type { Operation, Schema } from '../../contract/index.js';
import { DoesNotApply, type Check, type CheckContext } from '../support/context.js';
import { show } from '../support/findings.js';
import { firstPage, seededTokens } from '../support/inputs.js';
import type { TargetExchange } from '../support/client.js';
import { Probe } from '../support/probe.js';
import {
  PAGING,
  collectProperties,
  identifierOf,
  inScope,
  isRecord,
  scopeName,
  listItemSchema,
  listOperations,
  queryParameter,
  type Json,
  type JsonRecord,
} from '../support/records.js';

/** The search body's members, as the reference names them (checked against the document before use). */
const BODY = { product: 'productId', filters: 'filters', limit: 'limit' } as const;
const FILTER = {
  attribute: 'productPartAttributeId',
  values: 'values',
  operator: 'operator',
  min: 'min',
  max: 'max',
} as const;
/** The reduced part: its product, and its attributes with their values. */
const PART = {
  product: 'genericId',
  attributes: 'parametricAttributes',
  values: 'attributeValues',
} as const;
/** Products tried before giving up on finding one whose parts carry attributes. */
const PRODUCTS_TRIED = 5;
/** One page holding every part of the product, so a lost part can be seen. */
const PAGE = 100;

type Scalar = string | number | boolean;
interface Filter {
  [FILTER.attribute]: string;
  [FILTER.operator]: string;
  [FILTER.values]?: Scalar[];
  [FILTER.min]?: number;
  [FILTER.max]?: number;
}

/** The search operation: a POST whose body has the reference's members, with an operator enum. */
export function searchOperation(
  ops: readonly Operation[],
): { op: Operation; operators: string[] } | undefined {
  for (const op of ops) {
    if (op.method !== 'post' || !op.requestBody) continue;
    const body = collectProperties(op.requestBody.schema);
    const items = (body[BODY.filters]?.items as Schema | undefined) ?? undefined;
    const filter = collectProperties(items);
    const operators = (filter[FILTER.operator]?.enum as string[] | undefined) ?? [];
    if (
      body[BODY.product] &&
      FILTER.attribute in filter &&
      FILTER.values in filter &&
      operators.length > 0
    )
      return { op, operators };
  }
  return undefined;
}

function numberOf(value: Json): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const n = Number.parseFloat(value);
  return Number.isFinite(n) ? n : undefined;
}

/** The values a part carries for an attribute; undefined when it does not carry the attribute. */
function valuesOf(part: Json, attributeId: string): Json[] | undefined {
  const attributes =
    isRecord(part) && Array.isArray(part[PART.attributes]) ? (part[PART.attributes] as Json[]) : [];
  const found = attributes.find((a) => isRecord(a) && a[FILTER.attribute] === attributeId);
  if (!isRecord(found)) return undefined;
  return Array.isArray(found[PART.values]) ? (found[PART.values] as Json[]) : [];
}

/** Whether one value satisfies one filter: `values` is an OR-list, `range` inclusive; text compares ignoring case. */
function satisfies(value: Json, f: Filter): boolean {
  const n = numberOf(value);
  const wanted = f[FILTER.values] ?? [];
  switch (f[FILTER.operator]) {
    case 'eq':
      return wanted.some((w) =>
        typeof w === 'number' ? n === w : String(value).toLowerCase() === String(w).toLowerCase(),
      );
    case 'gt':
      return n !== undefined && wanted.some((w) => n > Number(w));
    case 'gte':
      return n !== undefined && wanted.some((w) => n >= Number(w));
    case 'lt':
      return n !== undefined && wanted.some((w) => n < Number(w));
    case 'lte':
      return n !== undefined && wanted.some((w) => n <= Number(w));
    case 'range': {
      const [min, max] = [f[FILTER.min], f[FILTER.max]];
      return n !== undefined && (min === undefined || n >= min) && (max === undefined || n <= max);
    }
    default:
      return true;
  }
}

function partMatches(part: Json, filters: readonly Filter[]): boolean {
  return filters.every((f) =>
    (valuesOf(part, f[FILTER.attribute]) ?? []).some((v) => satisfies(v, f)),
  );
}

function describe(f: Filter): string {
  const op = f[FILTER.operator];
  return op === 'range'
    ? `${f[FILTER.attribute]} in [${f[FILTER.min]}, ${f[FILTER.max]}]`
    : `${f[FILTER.attribute]} ${op} ${show(f[FILTER.values])}`;
}

/** The searches to try: every operator on a numeric attribute, eq (one value, then two) on a text one, and both together. */
export function searchesFor(
  numeric: { id: string; values: number[] } | undefined,
  text: { id: string; values: string[] } | undefined,
  operators: readonly string[],
): Filter[][] {
  const searches: Filter[][] = [];
  if (numeric) {
    const v = [...new Set(numeric.values)].sort((a, b) => a - b);
    const mid = v[Math.floor(v.length / 2)];
    const id = numeric.id;
    for (const operator of operators) {
      if (operator === 'range')
        searches.push([
          {
            [FILTER.attribute]: id,
            [FILTER.operator]: operator,
            [FILTER.min]: v[0],
            [FILTER.max]: mid,
          },
        ]);
      else
        searches.push([
          { [FILTER.attribute]: id, [FILTER.operator]: operator, [FILTER.values]: [mid] },
        ]);
    }
    // An OR of the two ends, and a filter that excludes no part carrying the attribute.
    if (operators.includes('eq'))
      searches.push([
        {
          [FILTER.attribute]: id,
          [FILTER.operator]: 'eq',
          [FILTER.values]: [v[0], v[v.length - 1]],
        },
      ]);
    if (operators.includes('gte'))
      searches.push([
        { [FILTER.attribute]: id, [FILTER.operator]: 'gte', [FILTER.values]: [v[0]] },
      ]);
  }
  if (text && operators.includes('eq')) {
    const id = text.id;
    const [a, b] = [...new Set(text.values)];
    searches.push([{ [FILTER.attribute]: id, [FILTER.operator]: 'eq', [FILTER.values]: [a] }]);
    if (b !== undefined)
      searches.push([{ [FILTER.attribute]: id, [FILTER.operator]: 'eq', [FILTER.values]: [a, b] }]);
    if (numeric)
      searches.push([
        searches[searches.length - 1][0],
        {
          [FILTER.attribute]: numeric.id,
          [FILTER.operator]: 'gte',
          [FILTER.values]: [Math.min(...numeric.values)],
        },
      ]);
  }
  return searches;
}

/** The attribute catalogue list (identified by the attribute id) and its `productId` filter. */
function catalogue(ctx: CheckContext): Operation | undefined {
  return listOperations(ctx.contract).find(
    (l) => identifierOf(listItemSchema(l)) === FILTER.attribute && queryParameter(l, BODY.product),
  );
}

function dataOf(json: Json): Json[] {
  return isRecord(json) && Array.isArray(json.data) ? json.data : [];
}

/** Attributes the parts carry, split by kind: numeric (every value a number) and text. */
function attributesCarried(
  parts: readonly Json[],
  catalogued: ReadonlySet<string>,
): { numeric?: { id: string; values: number[] }; text?: { id: string; values: string[] } } {
  const byId = new Map<string, Json[]>();
  for (const part of parts) {
    const attributes =
      isRecord(part) && Array.isArray(part[PART.attributes])
        ? (part[PART.attributes] as Json[])
        : [];
    for (const a of attributes) {
      if (
        !isRecord(a) ||
        typeof a[FILTER.attribute] !== 'string' ||
        !catalogued.has(a[FILTER.attribute] as string)
      )
        continue;
      const list = byId.get(a[FILTER.attribute] as string) ?? [];
      list.push(...(Array.isArray(a[PART.values]) ? (a[PART.values] as Json[]) : []));
      byId.set(a[FILTER.attribute] as string, list);
    }
  }
  let numeric: { id: string; values: number[] } | undefined;
  let text: { id: string; values: string[] } | undefined;
  for (const [id, values] of byId) {
    if (
      !numeric &&
      values.length > 1 &&
      values.every((v) => typeof v === 'number') &&
      new Set(values).size > 1
    )
      numeric = { id, values: values };
    if (!text && values.length > 0 && values.every((v) => typeof v === 'string'))
      text = { id, values: values };
  }
  return { numeric, text };
}

/** A search in a product that does not exist is a 404, when the document lists one. */
async function checkUnknownProduct(probe: Probe, op: Operation, seed: number): Promise<void> {
  const [unknownProduct] = seededTokens(seed, 'contract-unknown-product', 1);
  const notFound = op.responses.get('404');
  if (notFound)
    await probe.call(op, {
      body: { [BODY.product]: unknownProduct },
      expectStatus: [404],
      statusRule: 'not-found',
      statusSource: notFound.source,
    });
}

/** One search in one product: one page large enough for every part. */
function search(probe: Probe, op: Operation, productId: string, filters: Filter[]) {
  return probe.call(op, {
    body: {
      [BODY.product]: productId,
      [BODY.limit]: PAGE,
      ...(filters.length ? { [BODY.filters]: filters } : {}),
    },
    expectStatus: [200],
    statusRule: 'search',
  });
}

/** The attribute IDs the target's catalogue lists for a product. */
async function catalogued(
  probe: Probe,
  attributesList: Operation,
  productId: string,
): Promise<Set<string>> {
  const cat = await probe.call(attributesList, {
    query: [
      [BODY.product, productId],
      [PAGING.limit, String(PAGE)],
    ],
    expectStatus: [200],
  });
  return new Set(dataOf(cat.json).map((a) => (isRecord(a) ? String(a[FILTER.attribute]) : '')));
}

/** One filtered search's answer, held against the product searched and the filters. */
interface Searched {
  ex: TargetExchange;
  productId: string;
  filters: Filter[];
  label: string;
  got: Json[];
}

/** Every part returned belongs to the product searched and satisfies every filter. */
function checkPartsReturned(probe: Probe, op: Operation, s: Searched): void {
  s.got.forEach((part, i) => {
    const rec = part as JsonRecord;
    if (PART.product in rec && rec[PART.product] !== s.productId) {
      probe.add(op, s.ex, {
        rule: 'search-product',
        source: op.source,
        pointer: `/data/${i}/${PART.product}`,
        expected: `parts of ${s.productId} only`,
        actual: show(rec[PART.product]),
        message: `search in ${s.productId} returned a part of another product`,
      });
    }
    if (!partMatches(part, s.filters)) {
      const carried = s.filters
        .map((f) => show(valuesOf(part, f[FILTER.attribute]) ?? 'absent'))
        .join(', ');
      probe.add(op, s.ex, {
        rule: 'search-filter',
        source: op.source,
        pointer: `/data/${i}`,
        expected: `only parts with ${s.label}`,
        actual: `${show(rec.orderableId)} carries ${carried}`,
        message: `search ${s.label} returned a part that does not satisfy it`,
      });
    }
  });
}

/** When every part of the product was seen, the filter loses none that satisfies it. */
function checkNoneLost(probe: Probe, op: Operation, s: Searched, parts: readonly Json[]): void {
  const returned = new Set(s.got.map((p) => (isRecord(p) ? p.orderableId : undefined)));
  const lost = parts.filter(
    (p) => partMatches(p, s.filters) && !returned.has(isRecord(p) ? p.orderableId : undefined),
  );
  if (lost.length === 0) return;
  probe.add(op, s.ex, {
    rule: 'search-filter',
    source: op.source,
    pointer: '/data',
    expected: `every part of ${s.productId} with ${s.label} (${parts.filter((p) => partMatches(p, s.filters)).length})`,
    actual: `${s.got.length} returned; missing ${show(lost.map((p) => (isRecord(p) ? p.orderableId : p)).slice(0, 5))}`,
    message: `search ${s.label} lost parts that satisfy it`,
  });
}

/** What trying one product came to: the check is done, or the next product is to be tried. */
type Tried = 'done' | 'next';

/** Tries every search on one product's own attributes; 'next' when its parts carry none. */
async function searchProduct(
  probe: Probe,
  found: { op: Operation; operators: string[]; attributesList: Operation },
  productId: string,
): Promise<Tried> {
  const { op, operators } = found;
  const all = await search(probe, op, productId, []);
  if (all.status !== 200) return 'done'; // the probe reported it
  const parts = dataOf(all.json);
  const complete =
    isRecord(all.json) &&
    isRecord(all.json.pagination) &&
    Number(all.json.pagination.total) === parts.length;
  const carried = attributesCarried(
    parts,
    await catalogued(probe, found.attributesList, productId),
  );
  if (!carried.numeric && !carried.text) return 'next';
  for (const filters of searchesFor(carried.numeric, carried.text, operators)) {
    const ex = await search(probe, op, productId, filters);
    if (ex.status !== 200) continue;
    const label = filters.map(describe).join(' AND ');
    const searched: Searched = { ex, productId, filters, label, got: dataOf(ex.json) };
    checkPartsReturned(probe, op, searched);
    if (complete) checkNoneLost(probe, op, searched, parts);
  }
  return 'done';
}

export const checkSearch: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  const found = searchOperation(ctx.contract.operations);
  if (!found || !inScope(found.op, scope))
    throw new DoesNotApply(`no parametric search operation in ${scopeName(scope)}`);
  const { op, operators } = found;
  const attributesList = catalogue(ctx);
  const products = listOperations(ctx.contract).find(
    (l) => identifierOf(listItemSchema(l)) === BODY.product,
  );
  if (!attributesList || !products) {
    probe.skip(
      op,
      'parametric search semantics',
      'the document names no attribute catalogue or product list to take inputs from',
    );
    return probe.result();
  }
  await checkUnknownProduct(probe, op, ctx.options.seed);
  for (const product of (await firstPage(probe, products)).slice(0, PRODUCTS_TRIED)) {
    const productId = isRecord(product) ? product[BODY.product] : undefined;
    if (typeof productId !== 'string') continue;
    const tried = await searchProduct(probe, { op, operators, attributesList }, productId);
    if (tried === 'done') return probe.result();
  }
  probe.skip(
    op,
    'parametric search semantics',
    `none of the first ${PRODUCTS_TRIED} products has parts carrying catalogued attributes`,
  );
  return probe.result();
};
