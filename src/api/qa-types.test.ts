/**
 * @module api/qa-types.test
 * The library's types say what the mock takes, checked by the compiler (`npm run typecheck` reads
 * this file; each `@ts-expect-error` fails the check when the line below it compiles): a match
 * names only its operation's parameters, typed as the document types them, and a body only where
 * the operation takes one; a fault takes only what the server takes; a request body's defaulted
 * members are optional; the examples' operators are `SearchOperator`s. The test body only runs
 * the assertions vitest can see; the point is the compile.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type {
  Examples,
  Match,
  ProductPartSearchRequest,
  QaControls,
  SearchFilter,
  SearchOperator,
} from '../index.js';

/** Never called: the calls below are here for the compiler. */
export function typedCalls(qa: QaControls, id: string): void {
  void qa.stub({ operationId: 'getProduct', match: { params: { product_id: id } }, patch: {} });
  // @ts-expect-error getProduct's path parameter is product_id
  void qa.stub({ operationId: 'getProduct', match: { params: { productId: id } }, patch: {} });
  // @ts-expect-error listProducts has no path parameters
  void qa.verify({ operationId: 'listProducts', params: { product_id: id } });
  // @ts-expect-error listProducts has no query parameter page
  void qa.verify({ operationId: 'listProducts', query: { page: 1 } });
  // @ts-expect-error offset is an integer: 'abc' prints no number
  void qa.requests({ operationId: 'listProducts', query: { offset: 'abc' } });
  void qa.requests({ operationId: 'listProducts', query: { offset: '1', limit: 5 } });
  // @ts-expect-error getProduct (GET) takes no body
  void qa.verify({ operationId: 'getProduct', body: { productId: id } });
  void qa.verify({ operationId: 'searchProductParts', body: { productId: id } });
  // @ts-expect-error without an operationId, only the key
  void qa.requests({ query: { offset: 1 } });
  void qa.requests({ key: 'fullAccess' });
  // @ts-expect-error a fault's query goes in its match
  void qa.armFault({ operationId: 'listProducts', query: { offset: 1 }, status: 500 });
  void qa.armFault({ operationId: 'listProducts', match: { query: { offset: 1 } }, status: 500 });
  void qa.armFault({ match: { operationId: 'listProducts' }, times: 2, status: 500 });
  // @ts-expect-error the match is held to the fault's operation
  void qa.armFault({ operationId: 'getProduct', match: { query: { offset: 1 } }, status: 500 });
}

describe('the library types', () => {
  it('leave a request body its defaults out, and keep the answer side whole', () => {
    const filter: SearchFilter = { productPartAttributeId: 'a', values: [1] };
    const body: ProductPartSearchRequest = { productId: 'p', filters: [filter] };
    expect(body.filters).toHaveLength(1);
    expectTypeOf<Examples['search']['matching']['operator']>().toEqualTypeOf<SearchOperator>();
    expectTypeOf<
      Examples['search']['matching']['body']
    >().toEqualTypeOf<ProductPartSearchRequest>();
    expectTypeOf<{ key: string }>().toExtend<Match>();
  });
});
