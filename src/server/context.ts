/**
 * @module context
 * What one served environment (production or staging) needs: its base path, its dataset and the
 * indexes and caches over it. Built once at startup; immutable data, bounded caches.
 */
import type { Dataset } from '../fixtures/dataset.js';
import type { EnvironmentName } from './keys.js';
import { Listing } from './listing.js';
import { Lru } from './lru.js';
import { BASE_PATH } from '../contract/index.js';

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
  /** Serialized response bodies by a request's canonical form; bounded by entries and bytes. */
  bodies: Lru<string, string>;
}

export function basePathFor(environment: EnvironmentName, servedEnvironments: readonly EnvironmentName[]): string {
  return servedEnvironments.length > 1 && environment === 'staging' ? `/staging${BASE_PATH}` : BASE_PATH;
}

export function createApiContext(environment: EnvironmentName, basePath: string, dataset: Dataset): ApiContext {
  return {
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
    bodies: new Lru<string, string>(BODY_CACHE_ENTRIES, BODY_CACHE_BYTES, (body) => body.length),
  };
}
