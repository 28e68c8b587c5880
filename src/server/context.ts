/**
 * @module context
 * What one served environment (production or staging) needs: its base path, its dataset and the
 * indexes and caches over it. Built once at startup; immutable data (every member readonly: the
 * record edits of a test make a new value, records/apply.ts), bounded caches.
 */
import { FIXED_ORIGIN, type HrefOrigin } from './pipeline/href-origin.js';
import type { Collection, Dataset } from '../dataset/dataset.js';
import type { EnvironmentName } from './config/keys.js';
import { Listing } from './handlers/listing.js';
import { Lru } from './lru.js';
import {
  BASE_PATH,
  createReleaseView,
  deadLinkTest,
  listItemSchema,
  UNRELEASED,
  type Contract,
  type Operation,
  type Pruner,
} from '../contract/index.js';

const BODY_CACHE_ENTRIES = 2048;
const BODY_CACHE_BYTES = 128 * 1024 * 1024;

/**
 * What the handlers use of a bounded cache (an Lru, lru.ts), by its members: the public
 * declarations reach this module, and must not reach lru-cache's types.
 */
export interface TextCache<V> {
  get(key: string): V | undefined;
  getOrCreate(key: string, create: () => V): V;
  delete(key: string): boolean;
  keys(): Iterable<string>;
  readonly size: number;
}

export interface ApiContext {
  readonly environment: EnvironmentName;
  /** `/web-data/v1`, or `/staging/web-data/v1` when both environments are served. */
  readonly basePath: string;
  /** The dataset as served: the seed's, or, in a value the record edits made, the seed's with the edits over it (records/apply.ts). */
  readonly dataset: Dataset;
  /** The dataset the mock started with (the generated one, with `--records` over it): what a reset returns to. */
  readonly seed: Dataset;
  readonly listings: Listings;
  /** Each record's JSON text, the pieces list pages are assembled from; bounded by entries and bytes. */
  readonly recordTexts: TextCache<string>;
  /** Response bodies as sent (UTF-8 bytes), by the same kind of key; bounded like `recordTexts`. */
  readonly encoded: TextCache<Uint8Array<ArrayBuffer>>;
  /**
   * Below the newest release: a family's records as the served release has them, without the
   * properties and the links to operations it lacks (contract/release-view.ts). Keyed by
   * collection name; empty at the newest release and `unreleased` (see `servesAll`).
   */
  readonly prune: Readonly<Partial<Record<string, Pruner>>>;
  /** The same for a whole answer built outside the collections (search, cross-reference, a shape). */
  readonly answerView: (operation: Operation) => Pruner | undefined;
  /** Absolute hrefs for the Host a request came to, or as built (pipeline/href-origin.ts). */
  readonly hrefOrigin: HrefOrigin;
}

export interface Listings {
  readonly products: Listing<unknown>;
  readonly productParts: Listing<unknown>;
  readonly attributes: Listing<unknown>;
  readonly documents: Listing<unknown>;
  readonly documentTypes: Listing<unknown>;
  readonly boardsKits: Listing<unknown>;
  readonly packages: Listing<unknown>;
  readonly softwareTools: Listing<unknown>;
}

/**
 * The list indexes of a dataset. A collection `previous` already indexes keeps its listing; one
 * whose records changed only at the `changed` positions of its family derives its listing from
 * the previous one (the sort indexes carried over); any other gets a new listing.
 */
export function listingsOf(
  dataset: Dataset,
  previous?: Listings,
  changed?: ReadonlyMap<string, readonly number[]>,
): Listings {
  const listing = (family: keyof Listings) => {
    const collection = dataset[family] as Collection<unknown>;
    const before = previous?.[family];
    if (before?.collection === collection) return before;
    const positions = changed?.get(family);
    return before && positions ? before.derive(collection, positions) : new Listing(collection);
  };
  return {
    products: listing('products'),
    productParts: listing('productParts'),
    attributes: listing('attributes'),
    documents: listing('documents'),
    documentTypes: listing('documentTypes'),
    boardsKits: listing('boardsKits'),
    packages: listing('packages'),
    softwareTools: listing('softwareTools'),
  };
}

/** Each collection's record schema is the item schema of its list operation. */
export const LIST_OPERATION: Readonly<Record<string, string>> = {
  products: 'listProducts',
  productParts: 'listProductParts',
  attributes: 'listProductPartAttributes',
  documents: 'listDocuments',
  documentTypes: 'listDocumentTypes',
  boardsKits: 'listBoardsKits',
  packages: 'listPackages',
  softwareTools: 'listSoftwareTools',
};

/**
 * Whether answers are served as built, without a release view. At the newest release the document
 * declares every field the data has and no record links to an unreleased operation
 * (release-views.test.ts holds both), so a view would copy every record for nothing.
 */
function servesAll(contract: Contract): boolean {
  return contract.release === contract.latestRelease || contract.release === UNRELEASED;
}

/** Views per collection name, from the item schema of each family's list operation. */
function recordViews(
  contract: Contract,
  dataset: Dataset,
  isDeadLink: (value: string) => boolean,
): Partial<Record<string, Pruner>> {
  if (servesAll(contract)) return {};
  const views: Partial<Record<string, Pruner>> = {};
  for (const [family, operationId] of Object.entries(LIST_OPERATION)) {
    const op = contract.operations.find((o) => o.operationId === operationId);
    const items = op && listItemSchema(op);
    const name = (dataset[family as keyof Dataset] as { name?: string }).name;
    if (items && name) views[name] = createReleaseView(items, isDeadLink);
  }
  return views;
}

/** Views of whole answers per operation, built on first use. */
function answerViews(
  contract: Contract,
  isDeadLink: (value: string) => boolean,
): (operation: Operation) => Pruner | undefined {
  if (servesAll(contract)) return () => undefined;
  const views = new Map<string, Pruner>();
  return (operation) => {
    let view = views.get(operation.operationId);
    const schema = operation.responses.get('200')?.jsonSchema;
    if (!view && schema)
      views.set(operation.operationId, (view = createReleaseView(schema, isDeadLink)));
    return view;
  };
}

export function basePathFor(
  environment: EnvironmentName,
  servedEnvironments: readonly EnvironmentName[],
): string {
  return servedEnvironments.length > 1 && environment === 'staging'
    ? `/staging${BASE_PATH}`
    : BASE_PATH;
}

export function createApiContext(
  environment: EnvironmentName,
  basePath: string,
  dataset: Dataset,
  contract: Contract,
  hrefOrigin: HrefOrigin = FIXED_ORIGIN,
): ApiContext {
  const isDeadLink = deadLinkTest(contract.operations, dataset.options.baseUrl);
  return {
    prune: recordViews(contract, dataset, isDeadLink),
    answerView: answerViews(contract, isDeadLink),
    environment,
    basePath,
    hrefOrigin,
    dataset,
    seed: dataset,
    listings: listingsOf(dataset),
    ...answerCaches(),
  };
}

/** Empty answer caches (each bounded by entries and bytes). */
function answerCaches(): Pick<ApiContext, 'recordTexts' | 'encoded'> {
  return {
    recordTexts: new Lru<string, string>(
      BODY_CACHE_ENTRIES,
      BODY_CACHE_BYTES,
      (body) => body.length,
    ),
    encoded: new Lru<string, Uint8Array<ArrayBuffer>>(
      BODY_CACHE_ENTRIES,
      BODY_CACHE_BYTES,
      (bytes) => bytes.byteLength,
    ),
  };
}

/**
 * The environment with answer caches of its own: the first value the record edits make. The
 * environment as built at start is served, with its caches, to every scope without edits and to
 * the mock itself (src/server/scopes/), so an edited value must not write its answers there.
 */
export function withOwnCaches(api: ApiContext): ApiContext {
  const own = answerCaches();
  // The answers cached so far stay (the caller drops those the edits touch): the values are
  // immutable, so the copies share them; least recently used first, so the order holds.
  copyInto(api.recordTexts, own.recordTexts);
  copyInto(api.encoded, own.encoded);
  return { ...api, ...own };
}

function copyInto<V>(from: TextCache<V>, to: TextCache<V>): void {
  const keys = [...from.keys()].reverse();
  for (const key of keys) {
    const value = from.get(key);
    if (value !== undefined) to.getOrCreate(key, () => value);
  }
}
