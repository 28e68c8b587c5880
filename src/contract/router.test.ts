/**
 * @module contract/router.test
 * The shared router against the real document: static segments beat templated ones (with
 * backtracking), encoded identifiers stay one segment and are decoded strictly, HEAD falls back
 * to GET, a known path with another method gives the allowed methods, unknown paths match nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from './index.js';
import {
  createOperationRouter,
  decodePathParameters,
  type OperationRouter,
  type RouteMatch,
} from './router.js';

let router: OperationRouter;
let unreleased: OperationRouter;
let lenient: OperationRouter;

beforeAll(async () => {
  const { operations } = await loadContract();
  router = createOperationRouter(operations);
  lenient = createOperationRouter(operations, { emptySegments: 'skip' });
  unreleased = createOperationRouter((await loadContract({ release: 'unreleased' })).operations);
});

const idOf = (match: ReturnType<OperationRouter['match']>) =>
  match && 'operation' in match ? match.operation.operationId : undefined;
const route = (method: string, rawPath: string) => router.match(method, rawPath);

describe('createOperationRouter', () => {
  it('prefers literal segments over path parameters', () => {
    expect(idOf(route('GET', '/product-parts/attributes'))).toBe('listProductPartAttributes');
    expect(idOf(route('GET', '/product-parts/attributes/ATTR-1'))).toBe('getProductPartAttribute');
    expect(idOf(route('GET', '/product-parts/ABC123'))).toBe('getProductPart');
    expect(idOf(route('GET', '/documents/types'))).toBe('listDocumentTypes');
    expect(idOf(route('GET', '/documents/agile-id/A-1'))).toBe('getDocumentByAgileId');
    expect(idOf(route('GET', '/documents/D-1'))).toBe('getDocument');
  });

  it('routes by method; a literal path decides the method even where a template would take the path', () => {
    expect(idOf(route('POST', '/product-parts/search'))).toBe('searchProductParts');
    expect(idOf(route('post', '/product-parts/cross-reference'))).toBe(
      'crossReferenceProductParts',
    );
    // GET on a POST-only literal is that path with the wrong method, not "search" as an orderable id.
    expect(route('GET', '/product-parts/search')).toEqual({ allowed: ['POST'] });
    expect(route('HEAD', '/product-parts/cross-reference')).toEqual({ allowed: ['POST'] });
    // A literal with no operation of its own still backtracks: agile-id as a document id.
    expect(route('GET', '/documents/agile-id')).toMatchObject({
      operation: { operationId: 'getDocument' },
      params: { dcp_id: 'agile-id' },
    });
  });

  it('answers a known path with another method with the methods it allows (GET implies HEAD)', () => {
    expect(route('POST', '/products')).toEqual({ allowed: ['GET', 'HEAD'] });
    expect(route('DELETE', '/products/P1')).toEqual({ allowed: ['GET', 'HEAD'] });
    expect(route('PUT', '/product-parts/search')).toEqual({ allowed: ['POST'] });
    expect(router.allowed('/product-parts/attributes')).toEqual(['GET', 'HEAD']);
    expect(unreleased.allowed('/documents/download/X1')).toEqual(['GET', 'HEAD']);
    expect(router.allowed('/nothing/here')).toEqual([]);
  });

  it('decodes path parameters strictly and keeps %23 and %2F inside one segment', () => {
    expect(route('GET', '/product-parts/LM358%23PBF')).toMatchObject({
      params: { orderable_id: 'LM358#PBF' },
      problems: [],
    });
    expect(route('GET', '/software-tools/Tool%2FSuite%20v2')).toMatchObject({
      params: { software_tool_id: 'Tool/Suite v2' },
    });
    const malformed = route('GET', '/products/P%zz') as RouteMatch;
    expect(malformed.operation.operationId).toBe('getProduct');
    expect(malformed.params).toEqual({});
    expect(malformed.problems).toEqual([
      expect.objectContaining({ in: 'path', name: 'product_id', received: 'P%zz' }),
    ]);
  });

  it('answers HEAD from GET unless the document has a HEAD operation', () => {
    expect(idOf(route('HEAD', '/products/P1'))).toBe('getProduct');
    expect(idOf(unreleased.match('HEAD', '/documents/download/D-1'))).toBe('checkDocumentDownload');
    expect(idOf(unreleased.match('GET', '/documents/download/D-1'))).toBe('downloadDocument');
    // Not in the latest release: the download path is then a document id followed by junk.
    expect(route('GET', '/documents/download/D-1')).toBeUndefined();
  });

  it('matches nothing for unknown or partial paths', () => {
    expect(route('GET', '/nope')).toBeUndefined();
    expect(route('GET', '/products/P1/extra')).toBeUndefined();
    expect(route('GET', '/documents/agile-id')).toMatchObject({
      operation: { operationId: 'getDocument' },
      params: { dcp_id: 'agile-id' },
    });
  });

  it('treats empty segments strictly by default, or skips them when asked', () => {
    expect(route('GET', '/products/')).toBeUndefined();
    expect(route('GET', '//products')).toBeUndefined();
    expect(route('GET', '/products//')).toBeUndefined();
    expect(idOf(lenient.match('GET', '/products/'))).toBe('listProducts');
    expect(idOf(lenient.match('GET', '//products/P1'))).toBe('getProduct');
  });

  it('does not depend on the order the operations come in', async () => {
    const reversed = createOperationRouter([...(await loadContract()).operations].reverse());
    for (const [method, path] of [
      ['GET', '/product-parts/attributes'],
      ['GET', '/product-parts/search'],
      ['POST', '/product-parts/search'],
      ['GET', '/documents/types'],
      ['HEAD', '/products/P1'],
    ]) {
      expect(idOf(reversed.match(method, path))).toBe(idOf(route(method, path)));
    }
  });
});

describe('decodePathParameters', () => {
  it('decodes the parameters of a known template strictly from the raw path', () => {
    expect(
      decodePathParameters('/product-parts/{orderable_id}', '/product-parts/LT1%23PBF'),
    ).toEqual({ params: { orderable_id: 'LT1#PBF' }, problems: [] });
    expect(
      decodePathParameters(
        '/software-tools/{software_tool_id}',
        '/software-tools/Power%20Studio%20%26%20More',
      ).params,
    ).toEqual({ software_tool_id: 'Power Studio & More' });
    expect(decodePathParameters('/products/{product_id}', '/products/%E0%A4')).toMatchObject({
      params: {},
      problems: [{ in: 'path', name: 'product_id' }],
    });
  });
});
