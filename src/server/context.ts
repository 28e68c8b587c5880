/**
 * @module context
 * What one served environment (production or staging) needs: its base path, its dataset and the
 * indexes and caches over it. Built once at startup; immutable data, bounded caches.
 */
import type { Dataset } from '../fixtures/dataset.js';
import type { EnvironmentName } from './keys.js';
import { Listing } from './listing.js';
import { Lru } from './lru.js';
import {
  BASE_PATH,
  createPruner,
  UNRELEASED,
  type Contract,
  type Pruner,
  type Schema,
} from '../contract/index.js';

const BODY_CACHE_ENTRIES = 2048;
const BODY_CACHE_BYTES = 128 * 1024 * 1024;

export interface ApiContext {
  environment: EnvironmentName;
  /** `/web-data/v1`, or `/staging/web-data/v1` when both environments are served. */
  basePath: string;
  dataset: Dataset;
  listings: {
    products: Listing<unknown>;
    productParts: Listing<unknown>;
    attributes: Listing<unknown>;
    documents: Listing<unknown>;
    documentTypes: Listing<unknown>;
    boardsKits: Listing<unknown>;
    packages: Listing<unknown>;
    softwareTools: Listing<unknown>;
  };
  /** Each record's JSON text, the pieces list pages are assembled from; bounded by entries and bytes. */
  recordTexts: Lru<string, string>;
  /** Response bodies as sent (UTF-8 bytes), by the same kind of key; bounded like `recordTexts`. */
  encoded: Lru<string, Uint8Array<ArrayBuffer>>;
  /** For an older release: drops from a family's records the properties that release lacked. */
  prune: Partial<Record<string, Pruner>>;
}

/** Each collection's record schema is the item schema of its list operation. */
const LIST_OPERATION: Record<string, string> = {
  products: 'listProducts',
  productParts: 'listProductParts',
  attributes: 'listProductPartAttributes',
  documents: 'listDocuments',
  documentTypes: 'listDocumentTypes',
  boardsKits: 'listBoardsKits',
  packages: 'listPackages',
  softwareTools: 'listSoftwareTools',
};

/** Pruners per collection name, only when the served release is older than the newest one. */
function prunersFor(contract: Contract, dataset: Dataset): Partial<Record<string, Pruner>> {
  if (contract.release === contract.latestRelease || contract.release === UNRELEASED) return {};
  const pruners: Partial<Record<string, Pruner>> = {};
  for (const [family, operationId] of Object.entries(LIST_OPERATION)) {
    const op = contract.operations.find((o) => o.operationId === operationId);
    const items = (
      op?.responses.get('200')?.jsonSchema?.properties as Record<string, Schema> | undefined
    )?.data?.items as Schema | undefined;
    const name = (dataset[family as keyof Dataset] as { name?: string }).name;
    if (items && name) pruners[name] = createPruner(items);
  }
  return pruners;
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
): ApiContext {
  return {
    prune: prunersFor(contract, dataset),
    environment,
    basePath,
    dataset,
    listings: {
      products: new Listing(dataset.products),
      productParts: new Listing(dataset.productParts),
      attributes: new Listing(dataset.attributes),
      documents: new Listing(dataset.documents),
      documentTypes: new Listing(dataset.documentTypes),
      boardsKits: new Listing(dataset.boardsKits),
      packages: new Listing(dataset.packages),
      softwareTools: new Listing(dataset.softwareTools),
    },
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
