/**
 * @module examples
 * `GET /examples.json`: inputs that work against *this* running mock (its seed, scale, release and
 * keys), so nobody has to guess an identifier, a competitor number or a search that matches. Every
 * value is read from the dataset and the keys file once at startup; nothing here is hand-kept.
 * The shape is stable: the contract suite and the docs page read it.
 */
import type {
  Examples,
  KeyExample,
  KeyPurpose,
  OperationExample,
  SearchExample,
} from '../api/types.js';
import type { Contract, Operation } from '../contract/index.js';
import type { ProductPartSearchRequest, SearchOperator } from '../contract/named-types.gen.js';
import type { Collection, Dataset, Scale } from '../dataset/dataset.js';
import { MATCH_TYPES } from '../dataset/catalog.js';
import type { EnvironmentName, KeyRecord, KeyStore } from './config/keys.js';
import type { Tier } from './config/tiers.js';

// The shape of /examples.json is public (the library's `examples`), defined in api/types.ts.
export type { Examples, KeyExample, KeyPurpose, OperationExample, SearchExample };

export const EXAMPLES_PATH = '/examples.json';

/** How many identifiers each family lists. */
const IDS_PER_FAMILY = 3;
/** Bounds the scan for features (a `#`, a space, a match type) so a huge dataset costs no more. */
const SCAN_LIMIT = 5000;

function firstIds(
  collection: Collection<unknown>,
  prefer: (id: string) => boolean = () => true,
): string[] {
  const preferred: string[] = [];
  const rest: string[] = [];
  const end = Math.min(collection.size, SCAN_LIMIT);
  for (let i = 0; i < end && preferred.length < IDS_PER_FAMILY; i++) {
    const id = collection.id(i);
    if (prefer(id)) preferred.push(id);
    else if (rest.length < IDS_PER_FAMILY) rest.push(id);
  }
  return [...preferred, ...rest].slice(0, IDS_PER_FAMILY);
}

function crossReferenceExamples(dataset: Dataset): Examples['crossReference'] {
  const byMatchType: Examples['crossReference']['byMatchType'] = {};
  const numbers = dataset.competitorPartNumbers;
  for (
    let i = 0;
    i < numbers.length && i < SCAN_LIMIT && Object.keys(byMatchType).length < MATCH_TYPES.length;
    i++
  ) {
    const result = dataset.crossReference(numbers[i]);
    const matchTypes = [...new Set(result.results.map((m) => m.matchType as string))];
    for (const type of matchTypes)
      byMatchType[type] ??= {
        partNumber: numbers[i],
        manufacturer: result.results[0]?.crossManufacturer ?? null,
        matchTypes,
      };
  }
  let n = 1;
  while (dataset.crossReference(`NO-SUCH-PART-${n}`).results.length > 0) n += 1;
  const unknown = `NO-SUCH-PART-${n}`;
  // In the document's order of match types, whatever order the scan found them in.
  const ordered = Object.fromEntries(
    MATCH_TYPES.filter((type) => byMatchType[type]).map((type) => [type, byMatchType[type]]),
  );
  return {
    byMatchType: ordered,
    unknown,
    partNumbers: [...new Set(Object.values(ordered).map((e) => e.partNumber)), unknown],
  };
}

type Scalar = number | string | boolean;

/** The request body of `searchProductParts` for a search described in plain terms. */
export function searchBody(search: Omit<SearchExample, 'body'>): ProductPartSearchRequest {
  const [min, max] = search.values;
  const filter =
    search.operator === 'range' && typeof min === 'number' && typeof max === 'number'
      ? {
          productPartAttributeId: search.productPartAttributeId,
          operator: search.operator,
          min,
          max,
        }
      : {
          productPartAttributeId: search.productPartAttributeId,
          operator: search.operator,
          values: search.values,
        };
  return { productId: search.productId, filters: [filter] };
}

/**
 * A search that matches (a number at least one part of the product has, with `gte`; or a text
 * value with `eq`) and one that cannot (`gt` the largest value any part of that product has).
 */
function searchExamples(dataset: Dataset): Examples['search'] {
  const { products, productParts, attributes } = dataset;
  let fallback: { matching: SearchExample; empty: SearchExample } | undefined;
  for (let p = 0; p < Math.min(products.size, SCAN_LIMIT); p++) {
    const parts = dataset.partsOfProduct(p);
    if (parts.length === 0) continue;
    const productId = products.id(p);
    const values = new Map<string, Scalar[]>();
    for (const k of parts) {
      for (const parametric of productParts.record(k).parametricAttributes ?? []) {
        const list = values.get(parametric.productPartAttributeId) ?? [];
        list.push(...(parametric.attributeValues as Scalar[]));
        values.set(parametric.productPartAttributeId, list);
      }
    }
    for (const [attributeId, seen] of values) {
      const at = attributes.indexOf(attributeId);
      if (at === undefined) continue;
      const attribute = attributes.record(at);
      const base = {
        productId,
        productPartAttributeId: attributeId,
        attributeName: attribute.attributeName ?? attributeId,
      };
      const make = (operator: SearchOperator, vals: Scalar[]): SearchExample => {
        const plain = { ...base, operator, values: vals };
        return { ...plain, body: searchBody(plain) };
      };
      const numbers = seen.filter((v): v is number => typeof v === 'number');
      const rule = dataset.attributeSearchRule(at);
      if (
        rule.valueType === 'number' &&
        numbers.length === seen.length &&
        rule.operators.includes('gte') &&
        rule.operators.includes('gt')
      ) {
        const largest = Math.max(...numbers);
        return { matching: make('gte', [numbers[0]]), empty: make('gt', [largest]) };
      }
      if (!fallback && typeof seen[0] === 'string') {
        fallback = {
          matching: make('eq', [seen[0]]),
          empty: make('eq', [`no such ${base.attributeName}`]),
        };
      }
    }
  }
  if (fallback) return fallback;
  throw new Error('examples: the dataset has no part with a searchable parametric value');
}

function downloadExample(dataset: Dataset): Examples['download'] {
  const { documents } = dataset;
  for (let i = 0; i < Math.min(documents.size, SCAN_LIMIT); i++) {
    const file = dataset.documentFile(i);
    if (file.bytes.byteLength === 0) continue;
    const record = documents.record(i) as { dcpDocumentId: string; agileId: string };
    return {
      dcpDocumentId: record.dcpDocumentId,
      agileId: record.agileId,
      filename: file.filename,
      contentType: file.contentType,
      bytes: file.bytes.byteLength,
    };
  }
  throw new Error('examples: the dataset has no document with a file');
}

/** Sorts the demo keys into what each is for, judged from its environment, scopes, expiry and tier. */
function keyExamples(
  keys: KeyStore,
  tiers: ReadonlyMap<string, Tier>,
  families: ReadonlySet<string>,
  environment: string,
  now: number,
): Examples['keys'] {
  const describe = (record: KeyRecord): KeyExample => ({
    name: record.name,
    key: keys.demoSecret(record.name)!,
    environment: record.environment,
    tier: record.tier,
    lacks: [...families].filter((f) => !record.scopes.has(f)),
    expired: record.expiresAt !== undefined && record.expiresAt <= now,
    purpose: record.purpose,
  });
  const all = keys.records
    .filter((r) => r.demo && keys.demoSecret(r.name) !== undefined)
    .map(describe);
  const here = all.filter((k) => k.environment === environment && !k.expired);
  const full = here.filter((k) => k.lacks.length === 0);
  const perMinute = (k: KeyExample) => tiers.get(k.tier)?.requestsPerMinute ?? 0;
  const byRate = [...full].sort((a, b) => perMinute(a) - perMinute(b));
  return {
    byPurpose: {
      fullAccess: full.find((k) => k !== byRate[0] && k !== byRate.at(-1)) ?? full[0] ?? null,
      loadTest: byRate.at(-1) ?? null,
      rateLimited: byRate[0] ?? null,
      restricted: here.find((k) => k.lacks.length > 0) ?? null,
      expired: all.find((k) => k.environment === environment && k.expired) ?? null,
      otherEnvironment: all.find((k) => k.environment !== environment && !k.expired) ?? null,
    },
    all,
  };
}

/** Fills a path template, percent-encoding each value as the API's own hrefs do. */
function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name]));
}

function operationExamples(
  operations: readonly Operation[],
  byParameter: Record<string, string>,
  bodies: Record<string, unknown>,
): Record<string, OperationExample> {
  const out: Record<string, OperationExample> = {};
  for (const op of operations) {
    const pathParameters: Record<string, string> = {};
    for (const p of op.parameters.filter((q) => q.in === 'path')) {
      const value = byParameter[p.name];
      // A new path parameter in the document must get an example here, or startup says so.
      if (value === undefined)
        throw new Error(
          `examples: no example value for path parameter "${p.name}" of ${op.operationId}`,
        );
      pathParameters[p.name] = value;
    }
    const example: OperationExample = {
      method: op.method.toUpperCase(),
      path: fillPath(op.path, pathParameters),
      pathParameters,
    };
    if (op.requestBody) {
      if (!(op.operationId in bodies))
        throw new Error(`examples: no example body for ${op.operationId}`);
      example.body = bodies[op.operationId];
    }
    out[op.operationId] = example;
  }
  return out;
}

export interface ExamplesInput {
  contract: Contract;
  /** What is read of the ApiContext: structural, so the public declarations need no cache types. */
  api: { dataset: Dataset; environment: EnvironmentName; basePath: string };
  keys: KeyStore;
  tiers: ReadonlyMap<string, Tier>;
  seed: number;
  scale: Scale;
  now: number;
}

/** Everything `GET /examples.json` serves; built once at startup. */
export function buildExamples(input: ExamplesInput): Examples {
  const { contract, api, keys, tiers } = input;
  const { dataset } = api;
  const download = downloadExample(dataset);
  const documents = Array.from(
    { length: Math.min(IDS_PER_FAMILY, dataset.documents.size) },
    (_, i) => dataset.documents.record(i) as { dcpDocumentId: string; agileId: string },
  );
  const ids: Examples['ids'] = {
    products: firstIds(dataset.products),
    productParts: firstIds(dataset.productParts, (id) => id.includes('#')),
    productPartAttributes: firstIds(dataset.attributes),
    documents: documents.map((d) => d.dcpDocumentId),
    documentsByAgileId: documents.map((d) => d.agileId),
    documentTypes: firstIds(dataset.documentTypes),
    boardsKits: firstIds(dataset.boardsKits),
    packages: firstIds(dataset.packages),
    softwareTools: firstIds(dataset.softwareTools, (id) => id.includes(' ')),
  };
  const crossReference = crossReferenceExamples(dataset);
  const search = searchExamples(dataset);
  const families = new Set(contract.operations.map((op) => op.family));
  const byParameter: Record<string, string> = {
    product_id: ids.products[0],
    orderable_id: ids.productParts[0],
    productPartAttributeId: search.matching.productPartAttributeId,
    agile_id: ids.documentsByAgileId[0],
    dcp_id: download.dcpDocumentId,
    board_kit_id: ids.boardsKits[0],
    package_code: ids.packages[0],
    software_tool_id: ids.softwareTools[0],
  };
  const bodies: Record<string, unknown> = {
    searchProductParts: search.matching.body,
    crossReferenceProductParts: { partNumbers: crossReference.partNumbers },
  };
  return {
    release: contract.release,
    seed: input.seed,
    scale: input.scale,
    environment: api.environment,
    basePath: api.basePath,
    ids,
    crossReference,
    search,
    download,
    keys: keyExamples(keys, tiers, families, api.environment, input.now),
    operations: operationExamples(contract.operations, byParameter, bodies),
  };
}
