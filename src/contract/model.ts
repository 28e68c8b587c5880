/**
 * @module model
 * The contract's domain types: what an operation, a parameter, a response and the whole contract
 * look like once read from the document, and the kinds of fact (`x-source`) they carry.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Release } from './releases.js';

/**
 * Where a fact comes from: `documented` by the source spec (first authority), `reference` from the
 * vendor's published reference where the source is silent, `inferred` by us where neither says.
 */
export type Source = 'documented' | 'reference' | 'inferred';
/** Every kind of fact, strongest first. */
export const SOURCES: readonly Source[] = ['documented', 'reference', 'inferred'];

/** Whether a value is one of the `x-source` kinds. */
export function isSource(value: unknown): value is Source {
  return (SOURCES as readonly unknown[]).includes(value);
}

/** Whether breaking a rule of this kind is a failure (documented, reference) rather than a warning (inferred). */
export function isBinding(source: Source): boolean {
  return source !== 'inferred';
}
export type HttpMethod = 'get' | 'post' | 'head';
/** The methods the document uses, in the order operations are listed. */
export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'post', 'head'];
/** A JSON Schema object from the document (dereferenced). */
export type Schema = Record<string, unknown>;

/**
 * How a list filter matches a record field (`x-filter.match`): `exact` (case-insensitive equality,
 * any element of a multi-valued field), `prefix`, `contains` (case-insensitive), `from`/`to`
 * (inclusive bounds on the date part `YYYY-MM-DD` of a date or date-time), `include` (a boolean
 * that, when false, leaves out records whose boolean field is true).
 */
export type FilterMatch = 'exact' | 'prefix' | 'contains' | 'from' | 'to' | 'include';
export const FILTER_MATCHES: readonly FilterMatch[] = [
  'exact',
  'prefix',
  'contains',
  'from',
  'to',
  'include',
];

/** What a list filter parameter reads (`x-filter` on the parameter). */
export interface FilterSpec {
  /** The record field (or derived field of the family) the filter reads. */
  field: string;
  match: FilterMatch;
  /** A value that means "no filter" (e.g. `softwareType=all`). */
  any?: string;
}

export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: Schema;
  /** `form` + `explode: false` means a comma-joined array. */
  commaJoined: boolean;
  source: Source;
  since: Release;
  /** On a list filter parameter: the record field it reads and how it matches (`x-filter`). */
  filter?: FilterSpec;
  /** On `order`: sort key -> record field (`x-sort`); a key it does not name sorts by the field of its own name. */
  sortFields?: Readonly<Record<string, string>>;
  /** On `offset`: whether it counts pages (multiplied by `limit`) or items (`x-offset`). */
  offsetUnit?: OffsetUnit;
}

/** What a list's `offset` counts (`x-offset`): a page index multiplied by `limit`, or items to skip. */
export type OffsetUnit = 'page' | 'item';
export const OFFSET_UNITS: readonly OffsetUnit[] = ['page', 'item'];

export interface HeaderSpec {
  name: string;
  required: boolean;
  schema: Schema;
}

export interface ResponseSpec {
  status: string;
  description: string;
  source: Source;
  headers: HeaderSpec[];
  contentTypes: string[];
  /** The `application/json` body schema, when the response has one. */
  jsonSchema?: Schema;
}

export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** Path template as in the document, e.g. `/products/{product_id}`. */
  path: string;
  summary: string;
  /** The endpoint family: the operation's first tag (`products`, `documents`, ...); key scopes name these. */
  family: string;
  source: Source;
  since: Release;
  parameters: Parameter[];
  requestBody?: { required: boolean; schema: Schema };
  responses: Map<string, ResponseSpec>;
}

export interface Contract {
  /** The release this contract describes (`info.version` unless trimmed to an older one). */
  release: Release;
  /** The newest released version, `info.version` of the full document. */
  latestRelease: Release;
  /** Every release named by the changelog, newest first. */
  releases: Release[];
  document: OpenAPIV3_1.Document;
  /** The document as written (`$ref`s kept), trimmed to this release: what the docs page shows. */
  sourceDocument: OpenAPIV3_1.Document;
  operations: Operation[];
  operation(operationId: string): Operation;
}
