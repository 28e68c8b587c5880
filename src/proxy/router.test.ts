/**
 * @module proxy/router.test
 * The proxy's router against the real document: static segments beat templated ones, encoded
 * identifiers stay one segment, HEAD falls back to GET, unknown paths and methods match nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { createRouter, type RouteMatch } from './router.js';

let route: (method: string, rawPath: string) => RouteMatch | undefined;
let routeUnreleased: typeof route;

beforeAll(async () => {
  route = createRouter((await loadContract()).operations);
  routeUnreleased = createRouter((await loadContract({ release: 'unreleased' })).operations);
});

const idOf = (match: RouteMatch | undefined) => match?.operation.operationId;

describe('createRouter', () => {
  it('prefers literal segments over path parameters', () => {
    expect(idOf(route('GET', '/product-parts/attributes'))).toBe('listProductPartAttributes');
    expect(idOf(route('GET', '/product-parts/attributes/ATTR-1'))).toBe('getProductPartAttribute');
    expect(idOf(route('GET', '/product-parts/ABC123'))).toBe('getProductPart');
    expect(idOf(route('GET', '/documents/types'))).toBe('listDocumentTypes');
    expect(idOf(route('GET', '/documents/agile-id/A-1'))).toBe('getDocumentByAgileId');
    expect(idOf(route('GET', '/documents/D-1'))).toBe('getDocument');
  });

  it('routes by method', () => {
    expect(idOf(route('POST', '/product-parts/search'))).toBe('searchProductParts');
    expect(idOf(route('POST', '/product-parts/cross-reference'))).toBe('crossReferenceProductParts');
    // GET on a POST-only literal falls to the templated GET: "search" as an orderable id.
    expect(idOf(route('GET', '/product-parts/search'))).toBe('getProductPart');
    expect(route('POST', '/products')).toBeUndefined();
    expect(route('DELETE', '/products/P1')).toBeUndefined();
  });

  it('decodes path parameters and keeps %23 and %2F inside one segment', () => {
    expect(route('GET', '/product-parts/LM358%23PBF')).toMatchObject({ params: { orderable_id: 'LM358#PBF' } });
    expect(route('GET', '/software-tools/Tool%2FSuite%20v2')).toMatchObject({ params: { software_tool_id: 'Tool/Suite v2' } });
    expect(route('GET', '/products/P%zz')).toMatchObject({ params: { product_id: 'P%zz' } });
  });

  it('answers HEAD from GET unless the document has a HEAD operation', () => {
    expect(idOf(route('HEAD', '/products/P1'))).toBe('getProduct');
    expect(idOf(routeUnreleased('HEAD', '/documents/download/D-1'))).toBe('checkDocumentDownload');
    expect(idOf(routeUnreleased('GET', '/documents/download/D-1'))).toBe('downloadDocument');
    // Not in the latest release: the download path is then a document id followed by junk.
    expect(route('GET', '/documents/download/D-1')).toBeUndefined();
  });

  it('matches nothing for unknown or partial paths', () => {
    expect(route('GET', '/nope')).toBeUndefined();
    expect(route('GET', '/products/P1/extra')).toBeUndefined();
    expect(route('GET', '/documents/agile-id')).toMatchObject({ operation: { operationId: 'getDocument' }, params: { dcp_id: 'agile-id' } });
    expect(idOf(route('GET', '/products/'))).toBe('listProducts');
  });
});
