/**
 * @module completeness.test
 * Is `spec/openapi.yaml` complete and faithful to the vendor's source spec? The tables below are
 * this test's own, independent reading of `product-metadata-service-spec.md` (operations, statuses,
 * field tables with types, nullability and enums); the document is checked against them. A second
 * reading is the point here: it is how a drift between source and document gets caught.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { isSource, loadContract, type Contract, type Operation, type Schema, type Source } from './index.js';

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
  /** documented when the source shows the response shape; inferred when it says "not shown". */
  source: Source;
  since: string;
  kind: Kind;
  /** Component schema of the 200 body. */
  body?: string;
}

const OPERATIONS: SourceOperation[] = [
  { method: 'get', path: '/products', operationId: 'listProducts', family: 'products', source: 'documented', since: '1.1.1', kind: 'list', body: 'ProductList' },
  { method: 'get', path: '/products/{product_id}', operationId: 'getProduct', family: 'products', source: 'documented', since: '1.1.1', kind: 'by-id', body: 'ProductById' },
  // The source shows none of the product-parts shapes; the vendor's reference shows them all.
  { method: 'get', path: '/product-parts', operationId: 'listProductParts', family: 'product-parts', source: 'reference', since: '1.0.0', kind: 'list', body: 'ProductPartList' },
  { method: 'get', path: '/product-parts/{orderable_id}', operationId: 'getProductPart', family: 'product-parts', source: 'reference', since: '1.0.0', kind: 'by-id', body: 'ProductPart' },
  { method: 'post', path: '/product-parts/search', operationId: 'searchProductParts', family: 'product-parts', source: 'reference', since: '1.2.0', kind: 'post', body: 'ProductPartSearchResponse' },
  { method: 'get', path: '/product-parts/attributes', operationId: 'listProductPartAttributes', family: 'product-parts', source: 'reference', since: '1.2.0', kind: 'list', body: 'ProductPartAttributeList' },
  { method: 'get', path: '/product-parts/attributes/{productPartAttributeId}', operationId: 'getProductPartAttribute', family: 'product-parts', source: 'reference', since: '1.3.0', kind: 'by-id', body: 'ProductPartAttribute' },
  { method: 'post', path: '/product-parts/cross-reference', operationId: 'crossReferenceProductParts', family: 'product-parts', source: 'reference', since: '1.3.0', kind: 'post', body: 'CrossReferenceResponse' },
  { method: 'get', path: '/documents', operationId: 'listDocuments', family: 'documents', source: 'inferred', since: '1.1.0', kind: 'list', body: 'DocumentList' },
  { method: 'get', path: '/documents/{dcp_id}', operationId: 'getDocument', family: 'documents', source: 'inferred', since: '1.1.0', kind: 'by-id', body: 'Document' },
  { method: 'get', path: '/documents/agile-id/{agile_id}', operationId: 'getDocumentByAgileId', family: 'documents', source: 'documented', since: '1.1.0', kind: 'by-id', body: 'Document' },
  { method: 'get', path: '/documents/types', operationId: 'listDocumentTypes', family: 'documents', source: 'inferred', since: '1.3.0', kind: 'list', body: 'DocumentTypeList' },
  { method: 'get', path: '/documents/download/{dcp_id}', operationId: 'downloadDocument', family: 'documents', source: 'inferred', since: 'unreleased', kind: 'by-id' },
  { method: 'head', path: '/documents/download/{dcp_id}', operationId: 'checkDocumentDownload', family: 'documents', source: 'inferred', since: 'unreleased', kind: 'head' },
  { method: 'get', path: '/boards-kits', operationId: 'listBoardsKits', family: 'boards-kits', source: 'documented', since: '1.1.0', kind: 'list', body: 'BoardKitList' },
  { method: 'get', path: '/boards-kits/{board_kit_id}', operationId: 'getBoardKit', family: 'boards-kits', source: 'inferred', since: '1.1.0', kind: 'by-id', body: 'BoardKit' },
  { method: 'get', path: '/packages', operationId: 'listPackages', family: 'packages', source: 'inferred', since: '1.1.0', kind: 'list', body: 'PackageList' },
  { method: 'get', path: '/packages/{package_code}', operationId: 'getPackage', family: 'packages', source: 'documented', since: '1.1.0', kind: 'by-id', body: 'Package' },
  { method: 'get', path: '/software-tools', operationId: 'listSoftwareTools', family: 'software-tools', source: 'inferred', since: '1.1.0', kind: 'list', body: 'SoftwareToolList' },
  { method: 'get', path: '/software-tools/{software_tool_id}', operationId: 'getSoftwareTool', family: 'software-tools', source: 'documented', since: '1.1.0', kind: 'by-id', body: 'SoftwareTool' },
];

/**
 * Statuses every operation declares: 200; 401/403/429 (the source's general Errors table); 500
 * (documented for lists and by-ID endpoints, inferred for agile-id); 400 (malformed input, inferred);
 * 404 on by-ID endpoints; 413 on the POST endpoints (oversized bodies, inferred).
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
  if (status === '400' || status === '413') return 'inferred';
  if (status === '200') return op.source;
  // Errors rule 2: the agile-id endpoint documents only 404.
  if (op.operationId === 'getDocumentByAgileId' && status === '500') return 'inferred';
  return 'documented';
}

// ---------------------------------------------------------------------------------------------
// Field tables, in the source's own type notation ("string,null" = nullable).
// ---------------------------------------------------------------------------------------------

type FieldSpec = string | { type: string; enum?: readonly unknown[]; const?: unknown };

interface FieldTable {
  /** `Schema` or `Schema.prop`, `Schema.prop[]` (array items), chained. */
  at: string;
  fields: Record<string, FieldSpec>;
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

const FIELD_TABLES: FieldTable[] = [
  // Shared shapes
  { at: 'CategoryEntry', fields: { level: { type: 'integer', enum: [1, 2, 3, 4] }, title: 'string' } },
  { at: 'DocumentReference', fields: DOCUMENT_REFERENCE },
  { at: 'OrderableReference', fields: { orderableId: 'string', href: 'string' } },
  { at: 'BoardKitReference', fields: { boardKitId: 'string', title: 'string', href: 'string' } },
  { at: 'Partner', fields: { name: 'string', url: 'string,null' } },
  { at: 'Pagination', fields: { offset: 'integer', limit: 'integer', total: 'integer', has_more: 'boolean' } },
  // Product: list item and 1.0.0 by-ID shape
  { at: 'Product', fields: { ...PRODUCT_BY_ID_COMMON, additionalDetails: 'string,null', relatedProducts: 'array' } },
  { at: 'ProductV1_0_0', fields: { ...PRODUCT_BY_ID_COMMON, additionalDetails: 'string,null', relatedProducts: 'array' }, absent: ['applicationBlockDiagrams'] },
  { at: 'Product.relatedProducts[]', fields: { productId: 'string', title: 'string', href: 'string' } },
  { at: 'Product.softwareTools[]', fields: { softwareToolName: 'string', href: 'string' } },
  { at: 'Product.featuredDocuments[]', fields: DOCUMENT_REFERENCE },
  { at: 'Product.relatedDocuments[]', fields: DOCUMENT_REFERENCE },
  { at: 'Product.relatedDocumentsSecondary[]', fields: DOCUMENT_REFERENCE },
  { at: 'Product.orderableProducts[]', fields: { orderableId: 'string', href: 'string' } },
  { at: 'Product.relatedBoardsKits[]', fields: { boardKitId: 'string', title: 'string', href: 'string' } },
  { at: 'ProductList', fields: { data: 'array', pagination: 'object' } },
  // Product: 1.2.0 by-ID shape ("dcpDocumentId ... is typed as string")
  { at: 'ProductV1_2_0', fields: { ...PRODUCT_BY_ID_COMMON, applicationBlockDiagrams: 'array' }, absent: ['additionalDetails', 'relatedProducts'] },
  { at: 'ProductV1_2_0.applicationBlockDiagrams[]', fields: { title: 'string', description: 'string', imageUrl: 'string', url: 'string' } },
  { at: 'ProductV1_2_0.featuredDocuments[]', fields: { ...DOCUMENT_REFERENCE, dcpDocumentId: 'string' } },
  { at: 'ProductV1_2_0.relatedDocuments[]', fields: { ...DOCUMENT_REFERENCE, dcpDocumentId: 'string' } },
  { at: 'ProductV1_2_0.relatedDocumentsSecondary[]', fields: { ...DOCUMENT_REFERENCE, dcpDocumentId: 'string' } },
  // Document
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
      myvendorDocument: 'boolean',
    },
  },
  {
    at: 'Document.product[]',
    fields: { productId: 'string', type: { type: 'string', enum: ['Product', 'Board & Kit', 'Software Tool'] }, title: 'string', nid: 'string', uuid: 'string', language: 'string' },
  },
  { at: 'Document.translation[]', fields: { language: 'string', dcpDocumentId: 'string', agileId: 'string', title: 'string', href: 'string' } },
  { at: 'Document.disclaimer[]', fields: { dcpDocumentId: 'string', agileId: 'string', language: 'string', title: 'string', href: 'string' } },
  // Board or kit
  {
    at: 'BoardKit',
    fields: {
      boardKitId: 'string',
      wwwUpdateDate: 'string',
      uuid: 'string',
      title: 'string',
      boardKitType: { type: 'string', enum: BOARD_KIT_TYPES },
      category: 'array of string,null',
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
  },
  { at: 'BoardKit.softwareTools[]', fields: { name: 'string', url: 'string,null' } },
  { at: 'BoardKit.partner[]', fields: { name: 'string', url: 'string,null' } },
  { at: 'BoardKitList', fields: { data: 'array', pagination: 'object' } },
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
  },
  { at: 'Package.regulatory', fields: { leadFree: { type: 'string', enum: ['Yes', 'No'] }, pbFreeCategory: 'string,null' } },
  { at: 'Package.relatedDocuments[]', fields: DOCUMENT_REFERENCE },
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
  },
  { at: 'SoftwareTool.parentSoftwareCategory[]', fields: { title: 'string' } },
  { at: 'SoftwareTool.evaluationBoards[]', fields: { boardKitId: 'string', title: 'string', href: 'string' } },
  { at: 'SoftwareTool.relatedSoftwareTools[]', fields: { softwareToolName: 'string', href: 'string' } },
  { at: 'SoftwareTool.relatedSoftwareToolsSecondary[]', fields: { name: 'string', href: 'string' } },
  { at: 'SoftwareTool.alternative', fields: { softwareToolName: 'string', href: 'string', notes: 'string,null' } },
  { at: 'SoftwareTool.relatedVideos[]', fields: { videoId: 'string', title: 'string', url: 'string' } },
  { at: 'SoftwareTool.partner[]', fields: { name: 'string', url: 'string,null' } },
  // Error bodies (the source's Errors table)
  { at: 'UnauthorizedError', fields: { error: 'string', code: { type: 'integer', const: 401 } } },
  { at: 'ForbiddenError', fields: { error: 'string', code: { type: 'integer', const: 403 } } },
  { at: 'NotFoundError', fields: { error: 'string' } },
  { at: 'RateLimitError', fields: { error: 'string', code: { type: 'integer', const: 429 }, retry_after: 'integer' } },
  { at: 'ServerError', fields: { error: 'string' } },
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
  const declared = Array.isArray(schema.type) ? schema.type.map(String) : schema.type ? [String(schema.type)] : [];
  // Composed objects (allOf) carry no `type` of their own.
  const types = declared.length > 0 ? declared : isSchema(schema.properties) || Array.isArray(schema.allOf) ? ['object'] : [];
  const nullable = types.includes('null');
  let base = types.filter((t) => t !== 'null').join('|');
  if (base === 'array' && isSchema(schema.items) && schema.items.type === 'string') base = 'array of string';
  return nullable ? `${base},null` : base;
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
      const find = (): Operation | undefined => full.operations.find((op) => op.method === expected.method && op.path === expected.path);

      it(`exists as ${expected.operationId} in family ${expected.family}, x-source ${expected.source}, x-since ${expected.since}`, () => {
        const op = find();
        expect(op, `${expected.method.toUpperCase()} ${expected.path} is not in spec/openapi.yaml`).toBeDefined();
        expect({ operationId: op!.operationId, family: op!.family, source: op!.source, since: op!.since }).toEqual({
          operationId: expected.operationId,
          family: expected.family,
          source: expected.source,
          since: expected.since,
        });
      });

      it(`declares ${expectedStatuses(expected).join(', ')} with the right x-source each`, () => {
        const op = find()!;
        expect([...op.responses.keys()].sort()).toEqual(expectedStatuses(expected));
        const sources = Object.fromEntries([...op.responses].map(([status, r]) => [status, r.source]));
        const want = Object.fromEntries([...op.responses.keys()].map((status) => [status, expectedResponseSource(expected, status)]));
        expect(sources).toEqual(want);
      });

      it('has a JSON body on every response except HEAD and the file download 200', () => {
        const op = find()!;
        for (const [status, response] of op.responses) {
          const bodyless = expected.kind === 'head' || (expected.operationId === 'downloadDocument' && status === '200');
          expect(response.jsonSchema === undefined, `${expected.operationId} ${status}`).toBe(bodyless);
        }
        if (expected.body) expect(op.responses.get('200')!.jsonSchema).toBe(componentSchemas(full)[expected.body]);
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
      expect(full.operation(expected.operationId).requestBody?.required, expected.operationId).toBe(true);
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
    const missing = Object.entries(responses).filter(([, r]) => !isSource(r['x-source'])).map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('query parameters the source names are documented, even on inferred operations', () => {
    const named: [string, string][] = [
      ['listProducts', 'limit'],
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
    ];
    for (const [operationId, name] of named) {
      const param = full.operation(operationId).parameters.find((p) => p.name === name);
      expect(param?.source, `${operationId} ?${name}`).toBe('documented');
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
    }).toEqual({ orderableId: '1.0.0', BOPN: '1.1.0', distiInventory: '1.2.0', budgetaryPrice: '1.2.0', directBuy: '1.2.0', chipImage: '1.3.0', cadModel: '1.3.0' });
    expect(schemaAt(componentSchemas(full), 'PartParametricAttribute.attributeValuesParsed')['x-since']).toBe('1.3.0');
    expect(componentSchemas(full).ProductV1_2_0['x-since']).toBe('1.3.0');
  });

  it('the changelog names every release, newest first, with the source dates', () => {
    const changelog = (full.document.info as unknown as { 'x-changelog': { release: string; date?: string }[] })['x-changelog'];
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
      const schema = schemaAt(componentSchemas(full), table.at);
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
            : { type: notation, ...(spec.enum ? { enum: property.enum } : {}), ...('const' in spec ? { const: property.const } : {}) };
      }
      expect(actual).toEqual(table.fields);
    });

    it(`${table.at}: every source field is required (nullable ones are sent as null, not left out)`, () => {
      const { required } = shapeOf(schemaAt(componentSchemas(full), table.at));
      const notRequired = Object.keys(table.fields).filter((name) => !required.has(name));
      expect(notRequired).toEqual([]);
    });

    it(`${table.at}: any field beyond the source's table is marked x-source: reference or inferred`, () => {
      const { properties } = shapeOf(schemaAt(componentSchemas(full), table.at));
      const unmarked = Object.entries(properties)
        .filter(([name, s]) => !(name in table.fields) && s['x-source'] !== 'inferred' && s['x-source'] !== 'reference')
        .map(([name]) => name);
      expect(unmarked).toEqual([]);
      for (const name of table.absent ?? []) expect(properties, `${table.at} must not define ${name}`).not.toHaveProperty(name);
    });
  }

  it('the by-ID product is exactly one of the two shapes', () => {
    const byId = componentSchemas(full).ProductById;
    expect(byId.oneOf).toEqual([componentSchemas(full).ProductV1_0_0, componentSchemas(full).ProductV1_2_0]);
    expect(componentSchemas(full).ProductV1_0_0['x-shape-version']).toBe('1.0.0');
    expect(componentSchemas(full).ProductV1_2_0['x-shape-version']).toBe('1.2.0');
  });

  it('category lists accept the flat entry and the grouped (inner array) form', () => {
    const items = schemaAt(componentSchemas(full), 'Product.category').items as Schema;
    const branches = (items.anyOf as Schema[]).map((b) => notationOf(b));
    expect(branches.sort()).toEqual(['array', 'object']);
  });

  it('the product part shows what the source shows: orderableId and the changelog properties', () => {
    const schemas = componentSchemas(full);
    const part = shapeOf(schemas.ProductPart);
    expect(notationOf(part.properties.orderableId)).toBe('string');
    expect([...part.required]).toEqual(['orderableId']);
    for (const name of ['BOPN', 'distiInventory', 'budgetaryPrice', 'directBuy', 'chipImage', 'cadModel']) expect(part.properties, name).toHaveProperty(name);
    expect(notationOf(part.properties.directBuy)).toBe('boolean');
    expect(notationOf(part.properties.cadModel)).toBe('array');
    // distiInventory: inStock flag, total quantity, updated timestamp, per-distributor quantity, part number, cart URL (reference names).
    const inventory = shapeOf(part.properties.distiInventory);
    expect(Object.keys(inventory.properties).sort()).toEqual(['inStock', 'quantity', 'updated', 'value']);
    const distributor = shapeOf(inventory.properties.value.additionalProperties as Schema).properties;
    expect(Object.keys(distributor).sort()).toEqual(['distributorName', 'part', 'quantity', 'shoppingCartUrl']);
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
    expect(schemaAt(schemas, 'CrossReferenceMatch.matchType').enum).toEqual(['Drop-in', 'Footprint', 'Functional']);
    // "Each result has the match type, competitor manufacturer, lifecycle status, part description and comments."
    expect([...shapeOf(schemas.CrossReferenceMatch).required].sort()).toEqual(['comments', 'crossManufacturer', 'description', 'matchType', 'status']);
    expect(schemaAt(schemas, 'CrossReferenceRequest.partNumbers').maxItems).toBe(200);
  });
});

describe('query parameters the source documents', () => {
  const params = (operationId: string): Record<string, Schema> =>
    Object.fromEntries(full.operation(operationId).parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));

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
    expect(Object.keys(p).sort()).toEqual(['category', 'limit', 'offset', 'order', 'orderDirection', 'productId']);
  });

  it('listBoardsKits: order values wwwUpdateDate, title, boardKitType; filters boardKitId, boardKitType, category', () => {
    const p = params('listBoardsKits');
    expect((p.order.items as Schema).enum).toEqual(['wwwUpdateDate', 'title', 'boardKitType']);
    expect(p.boardKitType.enum).toEqual(BOARD_KIT_TYPES);
    expect(Object.keys(p).sort()).toEqual(['boardKitId', 'boardKitType', 'category', 'limit', 'offset', 'order', 'orderDirection']);
  });

  it('listProductParts takes the guide\'s limit and product_family; listProductPartAttributes takes productId', () => {
    expect(Object.keys(params('listProductParts'))).toEqual(expect.arrayContaining(['limit', 'product_family']));
    expect(Object.keys(params('listProductPartAttributes'))).toContain('productId');
  });

  it('listDocuments filters by type and subType plus language, category, product and revision date', () => {
    const names = Object.keys(params('listDocuments'));
    expect(names).toEqual(expect.arrayContaining(['type', 'subType', 'language', 'category', 'productId', 'revisionDateFrom', 'revisionDateTo']));
  });
});

describe('spec/DECISIONS.md covers what the document infers', () => {
  const decisions = (): string => readFileSync(DECISIONS_PATH, 'utf8');

  it('names every inferred operation by operationId', () => {
    const text = decisions();
    const missing = full.operations.filter((op) => op.source === 'inferred' && !text.includes(op.operationId)).map((op) => op.operationId);
    expect(missing).toEqual([]);
  });

  it('names every inferred component schema', () => {
    const text = decisions();
    const missing = Object.entries(componentSchemas(full))
      .filter(([name, s]) => s['x-source'] === 'inferred' && !new RegExp(`\\b${name}\\b`).test(text))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  it('entries are numbered 1..n without gaps', () => {
    const numbers = [...decisions().matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1]));
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
  });
});
