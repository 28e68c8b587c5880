/**
 * @module completeness.test
 * Is `spec/openapi.yaml` complete and faithful to the vendor's source spec? The tables below are
 * this test's own, independent reading of `product-metadata-service-spec.md` (operations, statuses,
 * field tables with types, nullability and enums); the document is checked against them. A second
 * reading is the point here: it is how a drift between source and document gets caught.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  isSource,
  loadContract,
  type Contract,
  type Operation,
  type Parameter,
  type Schema,
  type Source,
} from './index.js';

const DECISIONS_PATH = new URL('../../spec/DECISIONS.md', import.meta.url);

// ---------------------------------------------------------------------------------------------
// Operations, as the source lists them (20 in all, counting HEAD on the download path).
// ---------------------------------------------------------------------------------------------

type Kind = 'list' | 'by-id' | 'post' | 'head';

interface SourceOperation {
  method: Operation['method'];
  path: string;
  operationId: string;
  family: string;
  /**
   * documented when the source shows the response shape; reference when the source says "not shown"
   * and the vendor's published reference shows it; inferred when neither does.
   */
  source: Source;
  since: string;
  kind: Kind;
  /** Component schema of the 200 body. */
  body?: string;
}

const OPERATIONS: SourceOperation[] = [
  {
    method: 'get',
    path: '/products',
    operationId: 'listProducts',
    family: 'products',
    source: 'documented',
    since: '1.1.1',
    kind: 'list',
    body: 'ProductList',
  },
  {
    method: 'get',
    path: '/products/{product_id}',
    operationId: 'getProduct',
    family: 'products',
    source: 'documented',
    since: '1.1.1',
    kind: 'by-id',
    body: 'ProductById',
  },
  // The source shows none of the product-parts shapes; the vendor's reference shows them all.
  {
    method: 'get',
    path: '/product-parts',
    operationId: 'listProductParts',
    family: 'product-parts',
    source: 'reference',
    since: '1.0.0',
    kind: 'list',
    body: 'ProductPartList',
  },
  {
    method: 'get',
    path: '/product-parts/{orderable_id}',
    operationId: 'getProductPart',
    family: 'product-parts',
    source: 'reference',
    since: '1.0.0',
    kind: 'by-id',
    body: 'ProductPart',
  },
  {
    method: 'post',
    path: '/product-parts/search',
    operationId: 'searchProductParts',
    family: 'product-parts',
    source: 'reference',
    since: '1.2.0',
    kind: 'post',
    body: 'ProductPartSearchResponse',
  },
  {
    method: 'get',
    path: '/product-parts/attributes',
    operationId: 'listProductPartAttributes',
    family: 'product-parts',
    source: 'reference',
    since: '1.2.0',
    kind: 'list',
    body: 'ProductPartAttributeList',
  },
  {
    method: 'get',
    path: '/product-parts/attributes/{productPartAttributeId}',
    operationId: 'getProductPartAttribute',
    family: 'product-parts',
    source: 'reference',
    since: '1.3.0',
    kind: 'by-id',
    body: 'ProductPartAttribute',
  },
  {
    method: 'post',
    path: '/product-parts/cross-reference',
    operationId: 'crossReferenceProductParts',
    family: 'product-parts',
    source: 'reference',
    since: '1.3.0',
    kind: 'post',
    body: 'CrossReferenceResponse',
  },
  // The source shows no shape for these four; the reference shows the list, the by-DCP-id record and the type list.
  {
    method: 'get',
    path: '/documents',
    operationId: 'listDocuments',
    family: 'documents',
    source: 'reference',
    since: '1.1.0',
    kind: 'list',
    body: 'DocumentList',
  },
  {
    method: 'get',
    path: '/documents/{dcp_id}',
    operationId: 'getDocument',
    family: 'documents',
    source: 'reference',
    since: '1.1.0',
    kind: 'by-id',
    body: 'Document',
  },
  {
    method: 'get',
    path: '/documents/agile-id/{agile_id}',
    operationId: 'getDocumentByAgileId',
    family: 'documents',
    source: 'documented',
    since: '1.1.0',
    kind: 'by-id',
    body: 'Document',
  },
  {
    method: 'get',
    path: '/documents/types',
    operationId: 'listDocumentTypes',
    family: 'documents',
    source: 'reference',
    since: '1.3.0',
    kind: 'list',
    body: 'DocumentTypeList',
  },
  // Unreleased in the source, absent from the reference: ours alone.
  {
    method: 'get',
    path: '/documents/download/{dcp_id}',
    operationId: 'downloadDocument',
    family: 'documents',
    source: 'inferred',
    since: 'unreleased',
    kind: 'by-id',
  },
  {
    method: 'head',
    path: '/documents/download/{dcp_id}',
    operationId: 'checkDocumentDownload',
    family: 'documents',
    source: 'inferred',
    since: 'unreleased',
    kind: 'head',
  },
  {
    method: 'get',
    path: '/boards-kits',
    operationId: 'listBoardsKits',
    family: 'boards-kits',
    source: 'documented',
    since: '1.1.0',
    kind: 'list',
    body: 'BoardKitList',
  },
  {
    method: 'get',
    path: '/boards-kits/{board_kit_id}',
    operationId: 'getBoardKit',
    family: 'boards-kits',
    source: 'reference',
    since: '1.1.0',
    kind: 'by-id',
    body: 'BoardKit',
  },
  {
    method: 'get',
    path: '/packages',
    operationId: 'listPackages',
    family: 'packages',
    source: 'reference',
    since: '1.1.0',
    kind: 'list',
    body: 'PackageList',
  },
  {
    method: 'get',
    path: '/packages/{package_code}',
    operationId: 'getPackage',
    family: 'packages',
    source: 'documented',
    since: '1.1.0',
    kind: 'by-id',
    body: 'Package',
  },
  {
    method: 'get',
    path: '/software-tools',
    operationId: 'listSoftwareTools',
    family: 'software-tools',
    source: 'reference',
    since: '1.1.0',
    kind: 'list',
    body: 'SoftwareToolList',
  },
  {
    method: 'get',
    path: '/software-tools/{software_tool_id}',
    operationId: 'getSoftwareTool',
    family: 'software-tools',
    source: 'documented',
    since: '1.1.0',
    kind: 'by-id',
    body: 'SoftwareTool',
  },
];

/**
 * Statuses every operation declares: 200; 401/403/429 (the source's general Errors table); 500
 * (documented for lists and by-ID endpoints, inferred for agile-id); 400 (malformed input: the
 * reference's plain `{error}` envelope); 404 on by-ID endpoints; 413 on the POST endpoints
 * (oversized bodies, inferred).
 */
function expectedStatuses(op: SourceOperation): string[] {
  const common = ['200', '400', '401', '403', '429', '500'];
  if (op.kind === 'by-id' || op.kind === 'head') return [...common, '404'].sort();
  // The reference declares 404 on the search for an unknown product.
  if (op.operationId === 'searchProductParts') return [...common, '404', '413'].sort();
  if (op.kind === 'post') return [...common, '413'].sort();
  return common;
}

/** The source attribute of each declared response, as the source states or leaves unstated. */
function expectedResponseSource(op: SourceOperation, status: string): Source {
  // HEAD responses have no body and are described only by us.
  if (op.kind === 'head') return 'inferred';
  // 400 on a body is the reference's (declared on the two POSTs); on query/path input it is our choice.
  if (status === '400') return op.kind === 'post' ? 'reference' : 'inferred';
  if (status === '413') return 'inferred';
  if (status === '200') return op.source;
  // Errors rule 2: the agile-id endpoint documents only 404.
  if (op.operationId === 'getDocumentByAgileId' && status === '500') return 'inferred';
  return 'documented';
}

// ---------------------------------------------------------------------------------------------
// Field tables, in the source's own type notation ("string,null" = nullable).
//
// Presence: neither the source nor the vendor's reference marks record fields required, and the
// reference's own responses leave many out. So a shape requires only what the source states is
// present: the record's identifier, the list envelope (`data`, `pagination` and its four members),
// the error envelope's members, and the two fields the source says the product list carries.
// Every other source field is declared, with the source's type, but optional.
// ---------------------------------------------------------------------------------------------

type FieldSpec = string | { type: string; enum?: readonly unknown[]; const?: unknown };

interface FieldTable {
  /** `Schema` or `Schema.prop`, `Schema.prop[]` (array items), chained. */
  at: string;
  /** When the node at `at` is an `anyOf`, the branch (by type notation) the source's fields describe. */
  branch?: string;
  fields: Record<string, FieldSpec>;
  /** Exactly the fields whose presence the source states (the identifier, and what it says is present). */
  required: readonly string[];
  /** Fields the source says this shape does not carry. */
  absent?: string[];
}

const DOCUMENT_REFERENCE: Record<string, FieldSpec> = {
  agileId: 'string',
  dcpDocumentId: 'string,null',
  title: 'string',
  type: 'string',
  language: 'string',
  href: 'string',
};

const PRODUCT_BY_ID_COMMON: Record<string, FieldSpec> = {
  productId: 'string',
  wwwUpdateDate: 'string',
  uuid: 'string',
  title: 'string',
  url: 'string',
  category: 'array',
  description: 'string',
  features: 'string',
  applications: 'string',
  images: 'array of string',
  orderableProducts: 'array',
  relatedBoardsKits: 'array',
  featuredDocuments: 'array',
  relatedDocuments: 'array',
  relatedDocumentsSecondary: 'array',
  softwareTools: 'array',
};

const BOARD_KIT_TYPES = ['development', 'evaluation', 'demonstration', 'reference', 'starter'];

/** The 1.2.0 by-ID shape's document reference: the source types `dcpDocumentId` as a string, the reference as nullable; both are accepted. */
const DOCUMENT_REFERENCE_STRICT: Record<string, FieldSpec> = {
  ...DOCUMENT_REFERENCE,
  dcpDocumentId: 'string,null',
};

const FIELD_TABLES: FieldTable[] = [
  // Shared shapes
  {
    at: 'CategoryEntry',
    fields: { level: { type: 'integer', enum: [1, 2, 3, 4] }, title: 'string' },
    required: [],
  },
  { at: 'DocumentReference', fields: DOCUMENT_REFERENCE, required: ['agileId'] },
  {
    at: 'OrderableReference',
    fields: { orderableId: 'string', href: 'string' },
    required: ['orderableId'],
  },
  {
    at: 'BoardKitReference',
    fields: { boardKitId: 'string', title: 'string', href: 'string' },
    required: ['boardKitId'],
  },
  { at: 'Partner', fields: { name: 'string', url: 'string,null' }, required: [] },
  {
    at: 'Pagination',
    fields: { offset: 'integer', limit: 'integer', total: 'integer', has_more: 'boolean' },
    required: ['offset', 'limit', 'total', 'has_more'],
  },
  // Product: list item and 1.0.0 by-ID shape ("present in the list response": additionalDetails, relatedProducts)
  {
    at: 'Product',
    fields: { ...PRODUCT_BY_ID_COMMON, additionalDetails: 'string,null', relatedProducts: 'array' },
    required: ['productId', 'additionalDetails', 'relatedProducts'],
  },
  {
    at: 'ProductV1_0_0',
    fields: { ...PRODUCT_BY_ID_COMMON, additionalDetails: 'string,null', relatedProducts: 'array' },
    required: ['productId', 'additionalDetails', 'relatedProducts'],
    absent: ['applicationBlockDiagrams'],
  },
  {
    at: 'Product.relatedProducts[]',
    fields: { productId: 'string', title: 'string', href: 'string' },
    required: ['productId'],
  },
  {
    at: 'Product.softwareTools[]',
    fields: { softwareToolName: 'string', href: 'string' },
    required: ['softwareToolName'],
  },
  { at: 'Product.featuredDocuments[]', fields: DOCUMENT_REFERENCE, required: ['agileId'] },
  { at: 'Product.relatedDocuments[]', fields: DOCUMENT_REFERENCE, required: ['agileId'] },
  { at: 'Product.relatedDocumentsSecondary[]', fields: DOCUMENT_REFERENCE, required: ['agileId'] },
  {
    at: 'Product.orderableProducts[]',
    fields: { orderableId: 'string', href: 'string' },
    required: ['orderableId'],
  },
  {
    at: 'Product.relatedBoardsKits[]',
    fields: { boardKitId: 'string', title: 'string', href: 'string' },
    required: ['boardKitId'],
  },
  {
    at: 'ProductList',
    fields: { data: 'array', pagination: 'object' },
    required: ['data', 'pagination'],
  },
  // Product: 1.2.0 by-ID shape (the source's by-ID shape names applicationBlockDiagrams)
  {
    at: 'ProductV1_2_0',
    fields: { ...PRODUCT_BY_ID_COMMON, applicationBlockDiagrams: 'array' },
    required: ['productId', 'applicationBlockDiagrams'],
    absent: ['additionalDetails', 'relatedProducts'],
  },
  {
    at: 'ProductV1_2_0.applicationBlockDiagrams[]',
    fields: { title: 'string', description: 'string', imageUrl: 'string', url: 'string' },
    required: [],
  },
  {
    at: 'ProductV1_2_0.featuredDocuments[]',
    fields: DOCUMENT_REFERENCE_STRICT,
    required: ['agileId'],
  },
  {
    at: 'ProductV1_2_0.relatedDocuments[]',
    fields: DOCUMENT_REFERENCE_STRICT,
    required: ['agileId'],
  },
  {
    at: 'ProductV1_2_0.relatedDocumentsSecondary[]',
    fields: DOCUMENT_REFERENCE_STRICT,
    required: ['agileId'],
  },
  // Document. The source writes `myvendorDocument` and says the interface carries the vendor's
  // name there; the reference spells that name `myrenesasDocument`.
  {
    at: 'Document',
    fields: {
      agileId: 'string',
      dcpDocumentId: 'string',
      url: 'string',
      category: 'array',
      product: 'array',
      title: 'string',
      type: 'string',
      fileType: 'string',
      secureDocument: 'boolean',
      revisionDate: 'string',
      wwwUpdateDate: 'string',
      language: 'string',
      nid: 'string',
      uuid: 'string',
      translation: 'array',
      published: 'boolean',
      featured: 'boolean',
      relationship: 'string',
      filename: 'string',
      disclaimer: 'array',
      myrenesasDocument: 'boolean',
    },
    required: ['agileId'],
    absent: ['myvendorDocument'],
  },
  {
    at: 'Document.product[]',
    fields: {
      productId: 'string',
      type: { type: 'string', enum: ['Product', 'Board & Kit', 'Software Tool'] },
      title: 'string',
      nid: 'string',
      uuid: 'string',
      language: 'string',
    },
    required: ['productId'],
  },
  {
    at: 'Document.translation[]',
    fields: {
      language: 'string',
      dcpDocumentId: 'string',
      agileId: 'string',
      title: 'string',
      href: 'string',
    },
    required: ['agileId'],
  },
  {
    at: 'Document.disclaimer[]',
    fields: {
      dcpDocumentId: 'string',
      agileId: 'string',
      language: 'string',
      title: 'string',
      href: 'string',
    },
    required: ['agileId'],
  },
  // Board or kit. `category`: the source says "array of string, or null", the reference declares
  // category entries; the items accept both (checked below), so the notation here is the array's.
  {
    at: 'BoardKit',
    fields: {
      boardKitId: 'string',
      wwwUpdateDate: 'string',
      uuid: 'string',
      title: 'string',
      boardKitType: { type: 'string', enum: BOARD_KIT_TYPES },
      category: 'array,null',
      description: 'string',
      features: 'string',
      applications: 'string',
      additionalDetails: 'string,null',
      images: 'array of string',
      orderableProducts: 'array',
      relatedBoardsKits: 'array',
      featuredDocuments: 'array',
      relatedDocuments: 'array',
      softwareTools: 'array',
      partner: 'array,null',
    },
    required: ['boardKitId'],
  },
  { at: 'BoardKit.softwareTools[]', fields: { name: 'string', url: 'string,null' }, required: [] },
  { at: 'BoardKit.partner[]', fields: { name: 'string', url: 'string,null' }, required: [] },
  {
    at: 'BoardKitList',
    fields: { data: 'array', pagination: 'object' },
    required: ['data', 'pagination'],
  },
  // Package
  {
    at: 'Package',
    fields: {
      packageCode: 'string',
      wwwUpdateDate: 'string',
      url: 'string',
      uuid: 'string',
      title: 'string',
      packageType: 'string',
      packageName: 'string',
      category: 'string,null',
      class: 'string,null',
      description: 'string',
      specifications: 'object',
      packageStatus: { type: 'string', enum: ['Active', 'Inactive'] },
      regulatory: 'object',
      tubeOrTray: 'string,null',
      previousCode: 'string,null',
      images: 'array of string',
      relatedDocuments: 'array',
    },
    required: ['packageCode'],
  },
  {
    at: 'Package.specifications',
    fields: {
      leadCount: 'integer',
      pitch: 'number',
      length: 'number',
      width: 'number',
      thickness: 'number',
      dimensions: 'string',
      peakReflowTemp: 'number,null',
      jeitaStandard: 'string,null',
      mark: 'string,null',
    },
    required: [],
  },
  {
    at: 'Package.regulatory',
    fields: { leadFree: { type: 'string', enum: ['Yes', 'No'] }, pbFreeCategory: 'string,null' },
    required: [],
  },
  { at: 'Package.relatedDocuments[]', fields: DOCUMENT_REFERENCE, required: ['agileId'] },
  // Software tool
  {
    at: 'SoftwareTool',
    fields: {
      softwareToolName: 'string',
      wwwUpdateDate: 'string',
      url: 'string',
      uuid: 'string',
      shortDescription: 'string',
      description: 'string',
      softwareType: 'string',
      parentSoftwareCategory: 'array',
      features: 'string',
      additionalDetails: 'string,null',
      documentationDetails: 'string,null',
      downloadDetails: 'string,null',
      releaseInformation: 'string,null',
      targetDeviceDescription: 'string,null',
      discontinued: 'boolean',
      externalUrl: 'string,null',
      images: 'array of string',
      evaluationBoards: 'array',
      orderableProducts: 'array',
      featuredDocuments: 'array',
      relatedDocuments: 'array',
      relatedDocumentsSecondary: 'array',
      relatedSoftwareTools: 'array',
      relatedSoftwareToolsSecondary: 'array',
      alternative: 'object,null',
      partner: 'array,null',
      relatedVideos: 'array',
    },
    required: ['softwareToolName'],
  },
  // The source's items are `{title}`; the reference's are strings (both accepted, checked below).
  {
    at: 'SoftwareTool.parentSoftwareCategory[]',
    branch: 'object',
    fields: { title: 'string' },
    required: [],
  },
  {
    at: 'SoftwareTool.evaluationBoards[]',
    fields: { boardKitId: 'string', title: 'string', href: 'string' },
    required: ['boardKitId'],
  },
  {
    at: 'SoftwareTool.relatedSoftwareTools[]',
    fields: { softwareToolName: 'string', href: 'string' },
    required: ['softwareToolName'],
  },
  {
    at: 'SoftwareTool.relatedSoftwareToolsSecondary[]',
    fields: { name: 'string', href: 'string' },
    required: [],
  },
  {
    at: 'SoftwareTool.alternative',
    fields: { softwareToolName: 'string', href: 'string', notes: 'string,null' },
    required: ['softwareToolName'],
  },
  {
    at: 'SoftwareTool.relatedVideos[]',
    fields: { videoId: 'string', title: 'string', url: 'string' },
    required: ['videoId'],
  },
  { at: 'SoftwareTool.partner[]', fields: { name: 'string', url: 'string,null' }, required: [] },
  // Error bodies (the source's Errors table)
  {
    at: 'UnauthorizedError',
    fields: { error: 'string', code: { type: 'integer', const: 401 } },
    required: ['error', 'code'],
  },
  {
    at: 'ForbiddenError',
    fields: { error: 'string', code: { type: 'integer', const: 403 } },
    required: ['error', 'code'],
  },
  { at: 'NotFoundError', fields: { error: 'string' }, required: ['error'] },
  {
    at: 'RateLimitError',
    fields: { error: 'string', code: { type: 'integer', const: 429 }, retry_after: 'integer' },
    required: ['error', 'code', 'retry_after'],
  },
  { at: 'ServerError', fields: { error: 'string' }, required: ['error'] },
  // Error bodies the source does not show: the reference's plain envelope, one string member, no code or details.
  {
    at: 'BadRequestError',
    fields: { error: 'string' },
    required: ['error'],
    absent: ['code', 'details'],
  },
  {
    at: 'PayloadTooLargeError',
    fields: { error: 'string' },
    required: ['error'],
    absent: ['code', 'details'],
  },
];

// ---------------------------------------------------------------------------------------------
// Reading dereferenced schemas
// ---------------------------------------------------------------------------------------------

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Properties and required names of a schema, merged through `allOf` (the product shapes compose). */
function shapeOf(schema: Schema): { properties: Record<string, Schema>; required: Set<string> } {
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  const visit = (s: Schema): void => {
    if (isSchema(s.properties)) Object.assign(properties, s.properties);
    if (Array.isArray(s.required)) for (const name of s.required) required.add(String(name));
    if (Array.isArray(s.allOf)) for (const part of s.allOf) if (isSchema(part)) visit(part);
  };
  visit(schema);
  return { properties, required };
}

/** The schema at `Schema.prop[].prop`, or a thrown error naming the step that is missing. */
function schemaAt(schemas: Record<string, Schema>, at: string): Schema {
  const [root, ...steps] = at.split('.');
  const rootName = root.replace(/\[\]$/, '');
  let node = schemas[rootName];
  if (!node) throw new Error(`components.schemas.${rootName} is missing`);
  if (root.endsWith('[]')) node = node.items as Schema;
  for (const step of steps) {
    const name = step.replace(/\[\]$/, '');
    const next = shapeOf(node).properties[name];
    if (!next) throw new Error(`${at}: property "${name}" is missing`);
    node = step.endsWith('[]') ? (next.items as Schema) : next;
    if (!node) throw new Error(`${at}: "${name}" has no items`);
  }
  return node;
}

/** A schema's type in the source's notation: `string,null`, `array of string`, `object`... */
function notationOf(schema: Schema): string {
  const declared = Array.isArray(schema.type)
    ? schema.type.map(String)
    : schema.type
      ? [String(schema.type)]
      : [];
  // Composed objects (allOf) carry no `type` of their own.
  const types =
    declared.length > 0
      ? declared
      : isSchema(schema.properties) || Array.isArray(schema.allOf)
        ? ['object']
        : [];
  const nullable = types.includes('null');
  let base = types.filter((t) => t !== 'null').join('|');
  if (base === 'array' && isSchema(schema.items) && schema.items.type === 'string')
    base = 'array of string';
  return nullable ? `${base},null` : base;
}

/** The node a field table describes: the schema at `at`, or, for an `anyOf`, its branch of the given notation. */
function tableNode(schemas: Record<string, Schema>, table: FieldTable): Schema {
  const node = schemaAt(schemas, table.at);
  if (!table.branch) return node;
  const branches = Array.isArray(node.anyOf) ? (node.anyOf as Schema[]) : [];
  const branch = branches.find((b) => notationOf(b) === table.branch);
  if (!branch) throw new Error(`${table.at}: no anyOf branch of type ${table.branch}`);
  return branch;
}

/** Names a schema forbids through `not: {required}` or `not: {anyOf: [{required}...]}` in its `allOf` chain. */
function forbiddenNames(schema: Schema): Set<string> {
  const names = new Set<string>();
  const fromNot = (n: Schema): void => {
    if (Array.isArray(n.required)) for (const name of n.required) names.add(String(name));
    if (Array.isArray(n.anyOf))
      for (const b of n.anyOf)
        if (isSchema(b) && Array.isArray(b.required) && b.required.length === 1)
          names.add(String(b.required[0]));
  };
  const visit = (s: Schema): void => {
    if (isSchema(s.not)) fromNot(s.not);
    if (Array.isArray(s.allOf)) for (const part of s.allOf) if (isSchema(part)) visit(part);
  };
  visit(schema);
  return names;
}

function componentSchemas(contract: Contract): Record<string, Schema> {
  return (contract.document.components?.schemas ?? {}) as Record<string, Schema>;
}

let full: Contract;
beforeAll(async () => {
  full = await loadContract({ release: 'unreleased' });
});

describe('every operation the source lists is in the document', () => {
  it('has exactly the 20 source operations (method + path), no more', () => {
    const declared = full.operations.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort();
    const listed = OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort();
    expect(declared).toEqual(listed);
    expect(listed).toHaveLength(20);
  });

  for (const expected of OPERATIONS) {
    describe(`${expected.method.toUpperCase()} ${expected.path}`, () => {
      const find = (): Operation | undefined =>
        full.operations.find((op) => op.method === expected.method && op.path === expected.path);

      it(`exists as ${expected.operationId} in family ${expected.family}, x-source ${expected.source}, x-since ${expected.since}`, () => {
        const op = find();
        expect(
          op,
          `${expected.method.toUpperCase()} ${expected.path} is not in spec/openapi.yaml`,
        ).toBeDefined();
        expect({
          operationId: op!.operationId,
          family: op!.family,
          source: op!.source,
          since: op!.since,
        }).toEqual({
          operationId: expected.operationId,
          family: expected.family,
          source: expected.source,
          since: expected.since,
        });
      });

      it(`declares ${expectedStatuses(expected).join(', ')} with the right x-source each`, () => {
        const op = find()!;
        expect([...op.responses.keys()].sort()).toEqual(expectedStatuses(expected));
        const sources = Object.fromEntries(
          [...op.responses].map(([status, r]) => [status, r.source]),
        );
        const want = Object.fromEntries(
          [...op.responses.keys()].map((status) => [
            status,
            expectedResponseSource(expected, status),
          ]),
        );
        expect(sources).toEqual(want);
      });

      it('has a JSON body on every response except HEAD and the file download 200', () => {
        const op = find()!;
        for (const [status, response] of op.responses) {
          const bodyless =
            expected.kind === 'head' ||
            (expected.operationId === 'downloadDocument' && status === '200');
          expect(response.jsonSchema === undefined, `${expected.operationId} ${status}`).toBe(
            bodyless,
          );
        }
        if (expected.body)
          expect(op.responses.get('200')!.jsonSchema).toBe(componentSchemas(full)[expected.body]);
      });

      it('requires every path parameter of its template', () => {
        const op = find()!;
        const inTemplate = [...expected.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        const declared = op.parameters.filter((p) => p.in === 'path');
        expect(declared.map((p) => p.name).sort()).toEqual(inTemplate.sort());
        for (const p of declared) expect(p.required, p.name).toBe(true);
      });
    });
  }

  it('the POST endpoints take a required JSON body', () => {
    for (const expected of OPERATIONS.filter((op) => op.kind === 'post')) {
      expect(full.operation(expected.operationId).requestBody?.required, expected.operationId).toBe(
        true,
      );
    }
  });
});

describe('x-source and x-since annotations', () => {
  it('every component schema carries x-source', () => {
    const missing = Object.entries(componentSchemas(full))
      .filter(([, s]) => !isSource(s['x-source']))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('every component response carries x-source', () => {
    const responses = (full.document.components?.responses ?? {}) as Record<string, Schema>;
    expect(Object.keys(responses).length).toBeGreaterThan(0);
    const missing = Object.entries(responses)
      .filter(([, r]) => !isSource(r['x-source']))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('query parameters the source names are documented, even where the reference gives the operation', () => {
    const named: [string, string][] = [
      ['listProducts', 'limit'],
      ['listBoardsKits', 'limit'],
      ['listProducts', 'offset'],
      ['listProducts', 'order'],
      ['listProducts', 'orderDirection'],
      ['listProducts', 'productId'],
      ['listProducts', 'category'],
      ['listBoardsKits', 'boardKitType'],
      ['listBoardsKits', 'category'],
      ['listProductParts', 'product_family'],
      ['listDocuments', 'type'],
      ['listDocuments', 'subType'],
      ['listProductPartAttributes', 'productId'],
    ];
    for (const [operationId, name] of named) {
      const param = full.operation(operationId).parameters.find((p) => p.name === name);
      expect(param?.source, `${operationId} ?${name}`).toBe('documented');
    }
  });

  it('query parameters only the reference names are marked reference', () => {
    const named: [string, string][] = [
      ['listDocuments', 'language'],
      ['listDocuments', 'dcpDocumentIdStartsWith'],
      ['listDocuments', 'productId'],
      ['listDocuments', 'category'],
      ['listDocuments', 'documentRevisionDateStart'],
      ['listDocuments', 'documentRevisionDateEnd'],
      ['listDocuments', 'offset'],
      ['listDocumentTypes', 'offset'],
      ['listDocumentTypes', 'limit'],
      ['listPackages', 'packageCode'],
      ['listPackages', 'packageType'],
      ['listPackages', 'packageStatus'],
      ['listPackages', 'order'],
      ['listSoftwareTools', 'softwareToolName'],
      ['listSoftwareTools', 'softwareType'],
      ['listSoftwareTools', 'includeDiscontinued'],
      ['listSoftwareTools', 'order'],
    ];
    for (const [operationId, name] of named) {
      const param = full.operation(operationId).parameters.find((p) => p.name === name);
      expect(param?.source, `${operationId} ?${name}`).toBe('reference');
    }
  });

  it('parameters and properties the changelog dates carry that x-since', () => {
    const docs = full.operation('listDocuments');
    expect(docs.parameters.find((p) => p.name === 'type')?.since).toBe('1.3.0');
    expect(docs.parameters.find((p) => p.name === 'subType')?.since).toBe('1.3.0');
    const part = shapeOf(componentSchemas(full).ProductPart).properties;
    const sinceOf = (name: string): unknown => part[name]?.['x-since'] ?? '1.0.0';
    expect({
      orderableId: sinceOf('orderableId'),
      BOPN: sinceOf('BOPN'),
      distiInventory: sinceOf('distiInventory'),
      budgetaryPrice: sinceOf('budgetaryPrice'),
      directBuy: sinceOf('directBuy'),
      chipImage: sinceOf('chipImage'),
      cadModel: sinceOf('cadModel'),
    }).toEqual({
      orderableId: '1.0.0',
      BOPN: '1.1.0',
      distiInventory: '1.2.0',
      budgetaryPrice: '1.2.0',
      directBuy: '1.2.0',
      chipImage: '1.3.0',
      cadModel: '1.3.0',
    });
    expect(
      schemaAt(componentSchemas(full), 'PartParametricAttribute.attributeValuesParsed')['x-since'],
    ).toBe('1.3.0');
    expect(componentSchemas(full).ProductV1_2_0['x-since']).toBe('1.3.0');
  });

  it('the changelog names every release, newest first, with the source dates', () => {
    const changelog = (
      full.document.info as unknown as { 'x-changelog': { release: string; date?: string }[] }
    )['x-changelog'];
    expect(changelog.map((e) => [e.release, e.date ?? null])).toEqual([
      ['unreleased', null],
      ['1.3.0', '2026-08-05'],
      ['1.2.0', '2026-05-27'],
      ['1.1.1', '2026-04-12'],
      ['1.1.0', '2026-03-12'],
      ['1.0.0', '2025-10-01'],
    ]);
    expect(full.latestRelease).toBe('1.3.0');
  });
});

describe('field tables from the source match the dereferenced schemas', () => {
  for (const table of FIELD_TABLES) {
    it(`${table.at}: every source field, its type, nullability and enum`, () => {
      const schema = tableNode(componentSchemas(full), table);
      const { properties } = shapeOf(schema);
      const actual: Record<string, unknown> = {};
      for (const [name, spec] of Object.entries(table.fields)) {
        const property = properties[name];
        if (!property) {
          actual[name] = '(missing)';
          continue;
        }
        const notation = notationOf(property);
        actual[name] =
          typeof spec === 'string'
            ? notation
            : {
                type: notation,
                ...(spec.enum ? { enum: property.enum } : {}),
                ...('const' in spec ? { const: property.const } : {}),
              };
      }
      expect(actual).toEqual(table.fields);
    });

    const stated = table.required.length > 0 ? table.required.join(', ') : 'nothing';
    it(`${table.at}: requires ${stated}; every other source field is optional (presence not stated)`, () => {
      const { required } = shapeOf(tableNode(componentSchemas(full), table));
      // The required names are source fields, and exactly the stated ones: no more, no fewer.
      for (const name of table.required)
        expect(table.fields, `${table.at}: ${name} is not in the source's table`).toHaveProperty(
          name,
        );
      expect([...required].sort()).toEqual([...table.required].sort());
    });

    it(`${table.at}: any field beyond the source's table is marked x-source: reference or inferred`, () => {
      const node = tableNode(componentSchemas(full), table);
      const { properties } = shapeOf(node);
      const unmarked = Object.entries(properties)
        .filter(
          ([name, s]) =>
            !(name in table.fields) &&
            s['x-source'] !== 'inferred' &&
            s['x-source'] !== 'reference',
        )
        .map(([name]) => name);
      expect(unmarked).toEqual([]);
      // A field the source says the shape does not carry is either not declared or forbidden (`not: {required}`).
      const forbidden = forbiddenNames(node);
      for (const name of table.absent ?? []) {
        expect(
          name in properties && !forbidden.has(name),
          `${table.at} must not carry ${name}`,
        ).toBe(false);
      }
    });
  }

  it('the by-ID product is exactly one of the two shapes', () => {
    const byId = componentSchemas(full).ProductById;
    expect(byId.oneOf).toEqual([
      componentSchemas(full).ProductV1_0_0,
      componentSchemas(full).ProductV1_2_0,
    ]);
    expect(componentSchemas(full).ProductV1_0_0['x-shape-version']).toBe('1.0.0');
    expect(componentSchemas(full).ProductV1_2_0['x-shape-version']).toBe('1.2.0');
  });

  it('category lists accept the flat entry and the grouped (inner array) form', () => {
    const items = schemaAt(componentSchemas(full), 'Product.category').items as Schema;
    const branches = (items.anyOf as Schema[]).map((b) => notationOf(b));
    expect(branches.sort()).toEqual(['array', 'object']);
  });

  it('where source and reference disagree on a shape, both forms are declared', () => {
    const schemas = componentSchemas(full);
    // Board/kit category: the source's strings, the reference's category entries.
    const boardCategory = schemaAt(schemas, 'BoardKit.category').items as Schema;
    expect((boardCategory.anyOf as Schema[]).map((b) => notationOf(b)).sort()).toEqual([
      'object',
      'string',
    ]);
    expect((boardCategory.anyOf as Schema[]).find((b) => notationOf(b) === 'object')).toBe(
      schemas.CategoryEntry,
    );
    // Tool parent categories: the source's `{title}`, the reference's strings.
    const parent = schemaAt(schemas, 'SoftwareTool.parentSoftwareCategory[]');
    expect((parent.anyOf as Schema[]).map((b) => notationOf(b)).sort()).toEqual([
      'object',
      'string',
    ]);
    // Document sub-type: the reference's array of strings and its example's single string.
    const subType = schemaAt(schemas, 'Document.subType');
    expect((subType.anyOf as Schema[]).map((b) => notationOf(b))).toEqual([
      'array of string',
      'string',
    ]);
    expect(((subType.anyOf as Schema[])[0].items as Schema).type).toBe('string');
    expect(subType['x-source']).toBe('reference');
    // The side the mock does not serve is named (`x-form`), so the suite can say which one a target sends.
    expect((subType.anyOf as Schema[])[1]['x-form']).toMatch(/one string/);
    // Board/kit software tools: the source's `{name, url}` and the reference schema's `{softwareToolName, href}`.
    const link = shapeOf(schemaAt(schemas, 'BoardKit.softwareTools[]')).properties;
    expect(Object.keys(link).sort()).toEqual(['href', 'name', 'softwareToolName', 'url']);
    expect([link.softwareToolName['x-alternative-of'], link.href['x-alternative-of']]).toEqual([
      'name',
      'url',
    ]);
  });

  it('fields only the reference shows are declared, optional, and marked reference', () => {
    const schemas = componentSchemas(full);
    const expected: [string, string, string][] = [
      ['Document', 'href', 'string'],
      ['BoardKit', 'url', 'string'],
      ['Package', 'chipImage', 'string'],
      ['Product', 'applicationBlockDiagrams', 'array'],
    ];
    for (const [at, name, type] of expected) {
      const { properties, required } = shapeOf(schemas[at]);
      expect(properties[name], `${at}.${name}`).toBeDefined();
      expect(
        [notationOf(properties[name]), properties[name]['x-source'], required.has(name)],
        `${at}.${name}`,
      ).toEqual([type, 'reference', false]);
    }
  });

  it("the 400 body is the reference's plain envelope; InputProblem is gone", () => {
    const schemas = componentSchemas(full);
    expect(schemas).not.toHaveProperty('InputProblem');
    expect(Object.keys(shapeOf(schemas.BadRequestError).properties)).toEqual(['error']);
    expect(schemas.BadRequestError['x-source']).toBe('reference');
    const responses = full.document.components?.responses as Record<string, Schema>;
    // The reference declares 400 on the two POSTs only; on query and path input the status is ours.
    expect(responses.InvalidRequestBody['x-source']).toBe('reference');
    expect(responses.BadRequest['x-source']).toBe('inferred');
  });

  it('the product part shows what the source shows: orderableId and the changelog properties', () => {
    const schemas = componentSchemas(full);
    const part = shapeOf(schemas.ProductPart);
    expect(notationOf(part.properties.orderableId)).toBe('string');
    expect([...part.required]).toEqual(['orderableId']);
    for (const name of [
      'BOPN',
      'distiInventory',
      'budgetaryPrice',
      'directBuy',
      'chipImage',
      'cadModel',
    ])
      expect(part.properties, name).toHaveProperty(name);
    expect(notationOf(part.properties.directBuy)).toBe('boolean');
    expect(notationOf(part.properties.cadModel)).toBe('array');
    // distiInventory: inStock flag, total quantity, updated timestamp, per-distributor quantity, part number, cart URL (reference names).
    const inventory = shapeOf(part.properties.distiInventory);
    expect(Object.keys(inventory.properties).sort()).toEqual([
      'inStock',
      'quantity',
      'updated',
      'value',
    ]);
    const distributor = shapeOf(
      inventory.properties.value.additionalProperties as Schema,
    ).properties;
    expect(Object.keys(distributor).sort()).toEqual([
      'distributorName',
      'part',
      'quantity',
      'shoppingCartUrl',
    ]);
    // budgetaryPrice: breaks at 1, 100 and 1000 units, with currency.
    expect(schemaAt(schemas, 'ProductPart.budgetaryPrice[].units').enum).toEqual([1, 100, 1000]);
    expect(schemaAt(schemas, 'ProductPart.budgetaryPrice[]').properties).toHaveProperty('currency');
    // cadModel: a CAD vendor entry references a document; a third-party one carries url and providedBy.
    const cad = schemaAt(schemas, 'ProductPart.cadModel[]').anyOf as Schema[];
    expect([...shapeOf(cad[0]).required].sort()).toEqual(Object.keys(DOCUMENT_REFERENCE).sort());
    expect([...shapeOf(cad[1]).required].sort()).toEqual(['providedBy', 'url']);
    // attributeValuesParsed: type GP/BK/DOC/OP/URL, value, and href or url.
    const parsed = schemaAt(schemas, 'PartParametricAttribute.attributeValuesParsed[]');
    expect(shapeOf(parsed).properties.type.enum).toEqual(['GP', 'BK', 'DOC', 'OP', 'URL']);
    expect((parsed.oneOf as Schema[]).map((b) => b.required)).toEqual([['href'], ['url']]);
  });

  it('search operators and cross-reference match types are the documented sets', () => {
    const schemas = componentSchemas(full);
    expect(schemas.SearchOperator.enum).toEqual(['eq', 'gt', 'gte', 'lt', 'lte', 'range']);
    expect(schemaAt(schemas, 'CrossReferenceMatch.matchType').enum).toEqual([
      'Drop-in',
      'Footprint',
      'Functional',
    ]);
    // "Each result has the match type, competitor manufacturer, lifecycle status, part description and comments."
    expect([...shapeOf(schemas.CrossReferenceMatch).required].sort()).toEqual([
      'comments',
      'crossManufacturer',
      'description',
      'matchType',
      'status',
    ]);
    expect(schemaAt(schemas, 'CrossReferenceRequest.partNumbers').maxItems).toBe(200);
  });
});

describe('query parameters the source documents', () => {
  const params = (operationId: string): Record<string, Schema> =>
    Object.fromEntries(
      full
        .operation(operationId)
        .parameters.filter((p) => p.in === 'query')
        .map((p) => [p.name, p.schema]),
    );

  for (const operationId of ['listProducts', 'listBoardsKits']) {
    it(`${operationId}: limit default 10, offset default 0, orderDirection default desc, order default wwwUpdateDate`, () => {
      const p = params(operationId);
      expect(p.limit.default).toBe(10);
      expect(p.offset.default).toBe(0);
      expect(p.orderDirection.default).toEqual(['desc']);
      expect((p.orderDirection.items as Schema).enum).toEqual(['asc', 'desc']);
      expect(p.order.default).toEqual(['wwwUpdateDate']);
    });
  }

  it('listProducts: order values wwwUpdateDate, title; filters productId, category', () => {
    const p = params('listProducts');
    expect((p.order.items as Schema).enum).toEqual(['wwwUpdateDate', 'title']);
    expect(Object.keys(p).sort()).toEqual([
      'category',
      'limit',
      'offset',
      'order',
      'orderDirection',
      'productId',
    ]);
  });

  it('listBoardsKits: order values wwwUpdateDate, title, boardKitType; filters boardKitId, boardKitType, category', () => {
    const p = params('listBoardsKits');
    expect((p.order.items as Schema).enum).toEqual(['wwwUpdateDate', 'title', 'boardKitType']);
    expect(p.boardKitType.enum).toEqual(BOARD_KIT_TYPES);
    expect(Object.keys(p).sort()).toEqual([
      'boardKitId',
      'boardKitType',
      'category',
      'limit',
      'offset',
      'order',
      'orderDirection',
    ]);
  });

  it("listProductParts takes the guide's limit and product_family; listProductPartAttributes takes productId", () => {
    expect(Object.keys(params('listProductParts'))).toEqual(
      expect.arrayContaining(['limit', 'product_family']),
    );
    expect(Object.keys(params('listProductPartAttributes'))).toContain('productId');
  });

  const param = (operationId: string, name: string): Parameter => {
    const found = full
      .operation(operationId)
      .parameters.find((p) => p.in === 'query' && p.name === name);
    if (!found) throw new Error(`${operationId} has no query parameter ${name}`);
    return found;
  };

  it("limit is 1..100 on every list (the reference's bounds), default 10, 50 on the attribute and document-type lists", () => {
    const lists = OPERATIONS.filter((op) => op.kind === 'list').map((op) => op.operationId);
    const limits = Object.fromEntries(
      lists.map((id) => {
        const s = params(id).limit;
        return [id, [s.minimum, s.maximum, s.default]];
      }),
    );
    expect(limits).toEqual({
      listProducts: [1, 100, 10],
      listProductParts: [1, 100, 10],
      listProductPartAttributes: [1, 100, 50],
      listDocuments: [1, 100, 10],
      listDocumentTypes: [1, 100, 50],
      listBoardsKits: [1, 100, 10],
      listPackages: [1, 100, 10],
      listSoftwareTools: [1, 100, 10],
    });
    // The reference's schema gives /documents no default (its prose names one): that default is ours.
    expect(param('listDocuments', 'limit').source).toBe('inferred');
    // The source states `limit` (default 10) on products and boards; the other lists have it from the reference.
    for (const id of lists.filter(
      (id) => !['listDocuments', 'listProducts', 'listBoardsKits'].includes(id),
    ))
      expect(param(id, 'limit').source, id).toBe('reference');
    for (const id of ['listProducts', 'listBoardsKits'])
      expect(param(id, 'limit').source, id).toBe('documented');
    // The search body takes the same bounds.
    const body = full.operation('searchProductParts').requestBody!.schema;
    const limit = (body.properties as Record<string, Schema>).limit;
    expect([limit.minimum, limit.maximum, limit.default]).toEqual([1, 100, 10]);
  });

  it('offset is a plain item offset on /documents and /documents/types, a page index on every other list', () => {
    const units = Object.fromEntries(
      OPERATIONS.filter((op) => op.kind === 'list').map((op) => [
        op.operationId,
        param(op.operationId, 'offset').offsetUnit,
      ]),
    );
    expect(units).toEqual({
      listProducts: 'page',
      listProductParts: 'page',
      listProductPartAttributes: 'page',
      listDocuments: 'item',
      listDocumentTypes: 'item',
      listBoardsKits: 'page',
      listPackages: 'page',
      listSoftwareTools: 'page',
    });
    expect(params('listDocuments').offset.default).toBe(0);
    expect(params('listDocumentTypes').offset.minimum).toBe(0);
  });

  it("listDocuments: the reference's filters, no sorting; revisionDateFrom/To are gone", () => {
    const p = params('listDocuments');
    expect(Object.keys(p).sort()).toEqual(
      [
        'category',
        'dcpDocumentIdStartsWith',
        'documentRevisionDateEnd',
        'documentRevisionDateStart',
        'language',
        'limit',
        'offset',
        'productId',
        'subType',
        'type',
      ].sort(),
    );
    expect(p.language.enum).toEqual(['en', 'ja', 'zh-hans']);
    expect(p.documentRevisionDateStart.format).toBe('date');
    expect(p.documentRevisionDateEnd.format).toBe('date');
    expect(param('listDocuments', 'dcpDocumentIdStartsWith').filter).toEqual({
      field: 'dcpDocumentId',
      match: 'prefix',
    });
    expect(param('listDocuments', 'documentRevisionDateStart').filter).toEqual({
      field: 'revisionDate',
      match: 'from',
    });
    expect(param('listDocuments', 'documentRevisionDateEnd').filter).toEqual({
      field: 'revisionDate',
      match: 'to',
    });
    expect(param('listDocuments', 'productId').filter).toEqual({
      field: 'productId',
      match: 'exact',
    });
  });

  it('listDocumentTypes: limit and a plain offset only', () => {
    expect(Object.keys(params('listDocumentTypes')).sort()).toEqual(['limit', 'offset']);
  });

  it('listPackages: order values wwwUpdateDate, packageCode, packageType, packageStatus; filters packageCode, packageType, packageStatus', () => {
    const p = params('listPackages');
    expect((p.order.items as Schema).enum).toEqual([
      'wwwUpdateDate',
      'packageCode',
      'packageType',
      'packageStatus',
    ]);
    expect(p.order.default).toEqual(['wwwUpdateDate']);
    expect(Object.keys(p).sort()).toEqual([
      'limit',
      'offset',
      'order',
      'orderDirection',
      'packageCode',
      'packageStatus',
      'packageType',
    ]);
    expect(p.packageStatus.enum).toEqual(['Active', 'Inactive']);
    expect(param('listPackages', 'packageCode').filter).toEqual({
      field: 'packageCode',
      match: 'exact',
    });
  });

  it('listSoftwareTools: order values wwwUpdateDate, softwareToolName, softwareType; name contains, type default all, includeDiscontinued default false', () => {
    const p = params('listSoftwareTools');
    expect((p.order.items as Schema).enum).toEqual([
      'wwwUpdateDate',
      'softwareToolName',
      'softwareType',
    ]);
    expect(Object.keys(p).sort()).toEqual([
      'includeDiscontinued',
      'limit',
      'offset',
      'order',
      'orderDirection',
      'softwareToolName',
      'softwareType',
    ]);
    expect(param('listSoftwareTools', 'softwareToolName').filter).toEqual({
      field: 'softwareToolName',
      match: 'contains',
    });
    expect(p.softwareType.default).toBe('all');
    expect(param('listSoftwareTools', 'softwareType').filter).toEqual({
      field: 'softwareType',
      match: 'exact',
      any: 'all',
    });
    expect([p.includeDiscontinued.type, p.includeDiscontinued.default]).toEqual(['boolean', false]);
    expect(param('listSoftwareTools', 'includeDiscontinued').filter).toEqual({
      field: 'discontinued',
      match: 'include',
    });
  });
});

describe('spec/DECISIONS.md covers what the document infers', () => {
  const decisions = (): string => readFileSync(DECISIONS_PATH, 'utf8');

  it('names every inferred operation by operationId', () => {
    const text = decisions();
    const missing = full.operations
      .filter((op) => op.source === 'inferred' && !text.includes(op.operationId))
      .map((op) => op.operationId);
    expect(missing).toEqual([]);
  });

  it('names every inferred component schema', () => {
    const text = decisions();
    const missing = Object.entries(componentSchemas(full))
      .filter(
        ([name, s]) => s['x-source'] === 'inferred' && !new RegExp(`\\b${name}\\b`).test(text),
      )
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('entries are numbered 1..n without gaps', () => {
    const numbers = [...decisions().matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1]));
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });
});
