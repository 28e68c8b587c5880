/**
 * @module load
 * Reads `spec/openapi.yaml` once, dereferences it, trims it to one release when asked, and builds
 * the operation table every other part of the project works from. Nothing else parses the YAML.
 */
import { readFileSync } from 'node:fs';
import { packagePath } from '../package-root.js';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { parse as parseYaml } from 'yaml';
import type { OpenAPIV3_1 } from 'openapi-types';
import { existsIn, UNRELEASED, type Release } from './releases.js';

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
const OFFSET_UNITS: readonly OffsetUnit[] = ['page', 'item'];

/** What the `offset` of a list operation counts: pages unless the document says items. */
export function offsetUnitOf(op: Operation): OffsetUnit {
  return op.parameters.find((p) => p.in === 'query' && p.name === 'offset')?.offsetUnit ?? 'page';
}

/** The items a list skips for an `offset` value (the server's reading of it). */
export function itemsSkipped(unit: OffsetUnit, offset: number, limit: number): number {
  return unit === 'item' ? offset : offset * limit;
}

/** The `offset` value that asks for page `page` at `limit` (a client's way to it). */
export function offsetForPage(unit: OffsetUnit, page: number, limit: number): number {
  return unit === 'item' ? page * limit : page;
}

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

export const DEFAULT_SPEC_PATH = packagePath('spec', 'openapi.yaml');
/** The base path every server URL in the document ends with. */
export const BASE_PATH = '/web-data/v1';

const METHODS: HttpMethod[] = ['get', 'post', 'head'];
const cache = new Map<string, Promise<Contract>>();

export interface LoadOptions {
  specPath?: string;
  /** Trim to what this release served (`x-since`); default: the newest released version. */
  release?: Release;
}

/** Loads (once per path and release) the dereferenced contract. */
export function loadContract(options: LoadOptions = {}): Promise<Contract> {
  const specPath = options.specPath ?? DEFAULT_SPEC_PATH;
  const key = `${specPath}\0${options.release ?? ''}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = buildContract(specPath, options.release);
    cache.set(key, pending);
  }
  return pending;
}

/** The raw document text, as served at the mock's spec URL. */
export function readSpecText(specPath = DEFAULT_SPEC_PATH): string {
  return readFileSync(specPath, 'utf8');
}

async function buildContract(specPath: string, requested?: Release): Promise<Contract> {
  const raw = parseYaml(readSpecText(specPath)) as OpenAPIV3_1.Document;
  const latestRelease = raw.info.version;
  const changelog = (raw.info as { 'x-changelog'?: { release: string }[] })['x-changelog'] ?? [];
  const releases = changelog.map((entry) => entry.release);
  const release = requested ?? latestRelease;
  if (!releases.includes(release)) {
    throw new Error(`Unknown release "${release}"; the changelog names: ${releases.join(', ')}`);
  }
  const sourceDocument = structuredClone(raw);
  const document = (await $RefParser.dereference(raw)) as OpenAPIV3_1.Document;
  if (release !== UNRELEASED) {
    trimToRelease(document, release);
    trimToRelease(sourceDocument, release);
  }
  const operations = collectOperations(document);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return {
    release,
    latestRelease,
    releases,
    document,
    sourceDocument,
    operations,
    operation(operationId) {
      const op = byId.get(operationId);
      if (!op) throw new Error(`No operation "${operationId}" in release ${release}`);
      return op;
    },
  };
}

function sinceOf(node: unknown, root?: unknown): Release | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const obj = node as Record<string, unknown>;
  // In the document as written, a `$ref` entry carries the `x-since` of what it points to.
  if (root && typeof obj.$ref === 'string' && obj.$ref.startsWith('#/')) {
    const target = obj.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], root);
    return (obj['x-since'] as Release | undefined) ?? sinceOf(target);
  }
  return obj['x-since'] as Release | undefined;
}

/**
 * Removes operations, parameters, properties and `oneOf`/`anyOf` branches whose `x-since` is newer
 * than `release`. The dereferenced tree shares objects, so a visited set keeps the walk linear.
 */
function trimToRelease(document: OpenAPIV3_1.Document, release: Release): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    const pathItem = item as Record<string, unknown>;
    for (const method of METHODS) {
      if (pathItem[method] && !existsIn(sinceOf(pathItem[method]), release))
        delete pathItem[method];
    }
    if (!METHODS.some((m) => pathItem[m])) delete (document.paths as Record<string, unknown>)[path];
  }
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  for (const [name, schema] of Object.entries(schemas))
    if (!existsIn(sinceOf(schema), release)) delete schemas[name];
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    const obj = node as Record<string, unknown>;
    if (Array.isArray(obj.parameters)) {
      obj.parameters = obj.parameters.filter((p) => existsIn(sinceOf(p, document), release));
    }
    for (const combinator of ['oneOf', 'anyOf']) {
      if (Array.isArray(obj[combinator])) {
        obj[combinator] = (obj[combinator] as unknown[]).filter((s) =>
          existsIn(sinceOf(s, document), release),
        );
      }
    }
    const props = obj.properties as Record<string, unknown> | undefined;
    if (props && typeof props === 'object' && !Array.isArray(props)) {
      for (const [name, schema] of Object.entries(props)) {
        if (!existsIn(sinceOf(schema, document), release)) {
          delete props[name];
          if (Array.isArray(obj.required)) obj.required = obj.required.filter((r) => r !== name);
        }
      }
    }
    for (const child of Object.values(obj)) walk(child);
  };
  walk(document);
}

function sourceOf(node: unknown, fallback: Source): Source {
  const value =
    node && typeof node === 'object' ? (node as Record<string, unknown>)['x-source'] : undefined;
  return isSource(value) ? value : fallback;
}

/** `x-filter`, `x-sort` and `x-offset` of a parameter, checked: a document that misstates them does not load. */
function listingExtensions(
  p: OpenAPIV3_1.ParameterObject,
  where: string,
): Pick<Parameter, 'filter' | 'sortFields' | 'offsetUnit'> {
  const raw = p as unknown as Record<string, unknown>;
  const result: Pick<Parameter, 'filter' | 'sortFields' | 'offsetUnit'> = {};
  const unit = raw['x-offset'];
  if (unit !== undefined) {
    if (!OFFSET_UNITS.includes(unit as OffsetUnit))
      throw new Error(
        `${where} ?${p.name}: x-offset must be ${OFFSET_UNITS.join(' or ')}, got ${JSON.stringify(unit)}`,
      );
    result.offsetUnit = unit as OffsetUnit;
  }
  const filter = raw['x-filter'] as Record<string, unknown> | undefined;
  if (filter !== undefined) {
    const match = filter.match as FilterMatch;
    if (typeof filter.field !== 'string' || !filter.field || !FILTER_MATCHES.includes(match)) {
      throw new Error(
        `${where} ?${p.name}: x-filter needs {field, match: ${FILTER_MATCHES.join('|')}}, got ${JSON.stringify(filter)}`,
      );
    }
    result.filter = {
      field: filter.field,
      match,
      ...(typeof filter.any === 'string' ? { any: filter.any } : {}),
    };
  }
  const sort = raw['x-sort'] as Record<string, unknown> | undefined;
  if (sort !== undefined) {
    if (
      typeof sort !== 'object' ||
      sort === null ||
      Object.values(sort).some((f) => typeof f !== 'string' || !f)
    ) {
      throw new Error(
        `${where} ?${p.name}: x-sort must map each sort key to a record field name, got ${JSON.stringify(sort)}`,
      );
    }
    result.sortFields = Object.freeze({ ...(sort as Record<string, string>) });
  }
  return result;
}

function collectOperations(document: OpenAPIV3_1.Document): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    for (const method of METHODS) {
      const op = (item as Record<string, unknown>)[method] as
        OpenAPIV3_1.OperationObject | undefined;
      if (!op) continue;
      const source = sourceOf(op, 'documented');
      const since = sinceOf(op) ?? '1.0.0';
      const params = [
        ...((item.parameters ?? []) as OpenAPIV3_1.ParameterObject[]),
        ...((op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]),
      ];
      operations.push({
        operationId: op.operationId!,
        method,
        path,
        summary: op.summary ?? '',
        family: op.tags?.[0] ?? '',
        source,
        since,
        parameters: params.map((p) => ({
          name: p.name,
          in: p.in as Parameter['in'],
          required: p.required ?? false,
          schema: (p.schema ?? {}) as Schema,
          commaJoined: (p.schema as Schema | undefined)?.type === 'array' && p.explode === false,
          source: sourceOf(p, source),
          since: sinceOf(p) ?? since,
          ...listingExtensions(p, `${method.toUpperCase()} ${path}`),
        })),
        requestBody: op.requestBody
          ? {
              required: (op.requestBody as OpenAPIV3_1.RequestBodyObject).required ?? false,
              schema: ((op.requestBody as OpenAPIV3_1.RequestBodyObject).content['application/json']
                ?.schema ?? {}) as Schema,
            }
          : undefined,
        responses: collectResponses(op, source),
      });
    }
  }
  return operations;
}

function collectResponses(
  op: OpenAPIV3_1.OperationObject,
  opSource: Source,
): Map<string, ResponseSpec> {
  const responses = new Map<string, ResponseSpec>();
  for (const [status, value] of Object.entries(op.responses ?? {})) {
    const response = value as OpenAPIV3_1.ResponseObject;
    const headers = Object.entries(response.headers ?? {}).map(([name, h]) => {
      const header = h as OpenAPIV3_1.HeaderObject;
      return {
        name: name.toLowerCase(),
        required: header.required ?? false,
        schema: (header.schema ?? {}) as Schema,
      };
    });
    const content = response.content ?? {};
    responses.set(status, {
      status,
      description: response.description,
      source: sourceOf(response, opSource),
      headers,
      contentTypes: Object.keys(content),
      jsonSchema: content['application/json']?.schema as Schema | undefined,
    });
  }
  return responses;
}

/**
 * The declared response for a status: the exact code, then its `4XX`-style range, then `default`.
 * Undefined means the status is not part of the contract.
 */
export function declaredResponse(op: Operation, status: number): ResponseSpec | undefined {
  return (
    op.responses.get(String(status)) ??
    op.responses.get(`${String(status)[0]}XX`) ??
    op.responses.get('default')
  );
}
