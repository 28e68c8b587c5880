/**
 * @module load.test
 * The loader: release trimming by `x-since`, the operation table, caching, and the declared-response
 * lookup order (exact status, then `4XX`, then `default`).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  declaredResponse,
  loadContract,
  type Contract,
  type Operation,
  type ResponseSpec,
  type Schema,
} from './index.js';

const ids = (contract: Contract): string[] =>
  contract.operations.map((op) => op.operationId).sort();
const schemas = (contract: Contract): Record<string, Schema> =>
  (contract.document.components?.schemas ?? {}) as Record<string, Schema>;
const partProperties = (contract: Contract): string[] =>
  Object.keys(schemas(contract).ProductPart.properties as Schema);
const queryNames = (op: Operation): string[] =>
  op.parameters.filter((p) => p.in === 'query').map((p) => p.name);

const DOWNLOAD_OPS = ['checkDocumentDownload', 'downloadDocument'];

describe('release trimming', () => {
  it('defaults to the latest release, 1.3.0, without the unreleased download operations', async () => {
    const contract = await loadContract();
    expect(contract.release).toBe('1.3.0');
    expect(contract.latestRelease).toBe('1.3.0');
    expect(contract.releases).toEqual(['unreleased', '1.3.0', '1.2.0', '1.1.1', '1.1.0', '1.0.0']);
    expect(contract.operations).toHaveLength(18);
    for (const id of DOWNLOAD_OPS) expect(ids(contract)).not.toContain(id);
    expect(contract.document.paths).not.toHaveProperty('/documents/download/{dcp_id}');
  });

  it("'unreleased' keeps all 20 operations", async () => {
    const contract = await loadContract({ release: 'unreleased' });
    expect(contract.release).toBe('unreleased');
    expect(contract.operations).toHaveLength(20);
    expect(ids(contract)).toEqual(expect.arrayContaining(DOWNLOAD_OPS));
    expect(contract.operation('checkDocumentDownload').method).toBe('head');
  });

  it('1.0.0 has only the two product-parts operations and no BOPN', async () => {
    const contract = await loadContract({ release: '1.0.0' });
    expect(ids(contract)).toEqual(['getProductPart', 'listProductParts']);
    const part = schemas(contract).ProductPart;
    expect(partProperties(contract)).not.toContain('BOPN');
    for (const later of ['distiInventory', 'budgetaryPrice', 'directBuy', 'chipImage', 'cadModel'])
      expect(partProperties(contract)).not.toContain(later);
    expect(part.required).not.toContain('BOPN');
    expect(
      Object.keys(schemas(contract).PartParametricAttribute.properties as Schema),
    ).not.toContain('attributeValuesParsed');
  });

  it('1.1.0 adds documents, boards-kits, packages, software-tools and BOPN, but not products (1.1.1)', async () => {
    const contract = await loadContract({ release: '1.1.0' });
    expect(new Set(contract.operations.map((op) => op.family))).toEqual(
      new Set(['product-parts', 'documents', 'boards-kits', 'packages', 'software-tools']),
    );
    expect(partProperties(contract)).toContain('BOPN');
    expect(partProperties(contract)).not.toContain('distiInventory');
    expect(ids(contract)).not.toContain('listDocumentTypes');
  });

  it('1.1.1 introduces the products endpoints', async () => {
    const contract = await loadContract({ release: '1.1.1' });
    expect(ids(contract)).toEqual(expect.arrayContaining(['listProducts', 'getProduct']));
    expect(ids(contract)).not.toContain('searchProductParts');
  });

  it('1.2.0 has search and the attribute list, lacks cross-reference, attribute-by-id and document types', async () => {
    const contract = await loadContract({ release: '1.2.0' });
    expect(ids(contract)).toEqual(
      expect.arrayContaining(['searchProductParts', 'listProductPartAttributes']),
    );
    for (const later of [
      'crossReferenceProductParts',
      'getProductPartAttribute',
      'listDocumentTypes',
      ...DOWNLOAD_OPS,
    ])
      expect(ids(contract)).not.toContain(later);
    expect(partProperties(contract)).toEqual(
      expect.arrayContaining(['distiInventory', 'budgetaryPrice', 'directBuy']),
    );
    expect(partProperties(contract)).not.toContain('chipImage');
    // type/subType filters are 1.3.0; the 1.2.0 by-ID product shape is served from 1.3.0.
    expect(queryNames(contract.operation('listDocuments'))).not.toContain('type');
    expect(queryNames(contract.operation('listDocuments'))).not.toContain('subType');
    expect(schemas(contract).ProductById.oneOf).toHaveLength(1);
    expect((schemas(contract).ProductById.oneOf as Schema[])[0]['x-shape-version']).toBe('1.0.0');
  });

  it('1.3.0 serves both product shapes and the documents type filters', async () => {
    const contract = await loadContract({ release: '1.3.0' });
    expect(
      (schemas(contract).ProductById.oneOf as Schema[]).map((s) => s['x-shape-version']),
    ).toEqual(['1.0.0', '1.2.0']);
    expect(queryNames(contract.operation('listDocuments'))).toEqual(
      expect.arrayContaining(['type', 'subType']),
    );
  });

  it('trimming one release does not touch another release or the full document', async () => {
    await loadContract({ release: '1.0.0' });
    const latest = await loadContract();
    expect(partProperties(latest)).toEqual(expect.arrayContaining(['BOPN', 'cadModel']));
  });

  it('rejects a release the changelog does not name', async () => {
    await expect(loadContract({ release: '9.9.9' })).rejects.toThrow(
      /Unknown release "9\.9\.9".*1\.3\.0/,
    );
  });
});

describe('operation table', () => {
  it('is cached per release: the same promise and the same object', async () => {
    expect(loadContract({ release: '1.2.0' })).toBe(loadContract({ release: '1.2.0' }));
    expect(await loadContract()).toBe(await loadContract());
  });

  it('operation() finds by id and names the release when it cannot', async () => {
    const contract = await loadContract({ release: '1.0.0' });
    expect(contract.operation('getProductPart').path).toBe('/product-parts/{orderable_id}');
    expect(() => contract.operation('listProducts')).toThrow(
      'No operation "listProducts" in release 1.0.0',
    );
  });

  it('reads parameters: comma-joined arrays, required path params, per-parameter since and source', async () => {
    const contract = await loadContract();
    const tools = new Map(
      contract.operation('listSoftwareTools').parameters.map((p) => [p.name, p]),
    );
    expect(tools.get('order')?.commaJoined).toBe(true);
    expect(tools.get('orderDirection')?.commaJoined).toBe(true);
    expect(tools.get('softwareToolName')?.commaJoined).toBe(false);
    const docs = new Map(contract.operation('listDocuments').parameters.map((p) => [p.name, p]));
    expect(docs.get('language')?.commaJoined).toBe(false);
    expect(docs.get('type')).toMatchObject({ since: '1.3.0', source: 'documented' });
    expect(docs.get('language')).toMatchObject({ since: '1.1.0', source: 'reference' });
    // The reference's schema gives /documents no limit default; the default is ours.
    expect(docs.get('limit')).toMatchObject({ since: '1.1.0', source: 'inferred' });
    const path = contract.operation('getSoftwareTool').parameters.find((p) => p.in === 'path');
    expect(path).toMatchObject({ name: 'software_tool_id', required: true });
  });

  it('reads x-filter: the record field, the match and the no-filter value', async () => {
    const contract = await loadContract();
    const filterOf = (operationId: string, name: string) =>
      contract.operation(operationId).parameters.find((p) => p.name === name)?.filter;
    expect(filterOf('listSoftwareTools', 'softwareType')).toEqual({
      field: 'softwareType',
      match: 'exact',
      any: 'all',
    });
    expect(filterOf('listSoftwareTools', 'includeDiscontinued')).toEqual({
      field: 'discontinued',
      match: 'include',
    });
    expect(filterOf('listDocuments', 'documentRevisionDateStart')).toEqual({
      field: 'revisionDate',
      match: 'from',
    });
    expect(filterOf('listSoftwareTools', 'limit')).toBeUndefined();
  });

  it('reads x-offset: a page index on most lists, a plain item offset on /documents and /documents/types', async () => {
    const contract = await loadContract();
    const unitOf = (operationId: string, name = 'offset') =>
      contract.operation(operationId).parameters.find((p) => p.name === name)?.offsetUnit;
    expect(unitOf('listDocuments')).toBe('item');
    expect(unitOf('listDocumentTypes')).toBe('item');
    for (const id of [
      'listProducts',
      'listProductParts',
      'listProductPartAttributes',
      'listBoardsKits',
      'listPackages',
      'listSoftwareTools',
    ])
      expect(unitOf(id), id).toBe('page');
    expect(unitOf('listDocuments', 'limit')).toBeUndefined();
  });

  it('rejects a document whose x-offset is neither page nor item', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'x-offset-'));
    try {
      const specPath = join(dir, 'openapi.yaml');
      const text = readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8');
      expect(text).toContain('x-offset: item\n');
      writeFileSync(specPath, text.replace('x-offset: item\n', 'x-offset: items\n'));
      await expect(loadContract({ specPath, release: 'unreleased' })).rejects.toThrow(
        /\?offset: x-offset must be page or item, got "items"/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads responses: lower-cased header names, required flags, content types, body schema', async () => {
    const contract = await loadContract({ release: 'unreleased' });
    const ok = contract.operation('listProducts').responses.get('200')!;
    // The source says successes "may" carry them; the reference publishes none: declared, not required.
    expect(ok.headers.map((h) => [h.name, h.required])).toEqual([
      ['x-ratelimit-limit', false],
      ['x-ratelimit-remaining', false],
    ]);
    expect(ok.contentTypes).toEqual(['application/json']);
    const limited = contract.operation('listProducts').responses.get('429')!;
    expect(limited.headers.map((h) => [h.name, h.required])).toEqual([['retry-after', false]]);
    const download = contract.operation('downloadDocument').responses.get('200')!;
    expect(download.jsonSchema).toBeUndefined();
    expect(download.contentTypes).toContain('application/pdf');
    expect(
      download.headers
        .filter((h) => h.required)
        .map((h) => h.name)
        .sort(),
    ).toEqual(['content-disposition', 'content-length']);
    expect(contract.operation('checkDocumentDownload').responses.get('404')!.contentTypes).toEqual(
      [],
    );
  });

  it('the search operation carries its request body schema', async () => {
    const op = (await loadContract()).operation('searchProductParts');
    expect(op.requestBody?.required).toBe(true);
    expect(op.requestBody?.schema.required).toEqual(['productId']);
  });
});

describe('declaredResponse: exact status, then range, then default', () => {
  const response = (status: string): ResponseSpec => ({
    status,
    description: status,
    source: 'inferred',
    headers: [],
    contentTypes: [],
  });
  const op = (...statuses: string[]): Operation => ({
    operationId: 'synthetic',
    method: 'get',
    path: '/synthetic',
    summary: '',
    family: 'products',
    source: 'inferred',
    since: '1.0.0',
    parameters: [],
    responses: new Map(statuses.map((s) => [s, response(s)])),
  });

  it('prefers the exact status over its range and default', () => {
    expect(declaredResponse(op('404', '4XX', 'default'), 404)?.status).toBe('404');
  });

  it('falls back to the range', () => {
    expect(declaredResponse(op('404', '4XX', 'default'), 418)?.status).toBe('4XX');
  });

  it('falls back to default last', () => {
    expect(declaredResponse(op('404', '4XX', 'default'), 503)?.status).toBe('default');
  });

  it('returns undefined for an undeclared status when there is no default', () => {
    expect(declaredResponse(op('200', '4XX'), 503)).toBeUndefined();
  });

  it('on the real document an undeclared status is not part of the contract', async () => {
    const getProduct = (await loadContract()).operation('getProduct');
    expect(declaredResponse(getProduct, 200)?.status).toBe('200');
    expect(declaredResponse(getProduct, 418)).toBeUndefined();
    expect(declaredResponse((await loadContract()).operation('listProducts'), 404)).toBeUndefined();
  });
});
