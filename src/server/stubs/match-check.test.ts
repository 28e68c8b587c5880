/**
 * @module stubs/match-check.test
 * A match that can never fire is refused where it enters, by every control that takes one (a
 * stub, an armed fault, the journal's find, verify), with a 400 naming the member under `/match`
 * and the valid names: a parameter the operation does not declare, a value no request carries or
 * parses to, a body on an operation that takes none, a parameter or body without an operationId.
 * What a request can meet is still accepted, and `times` and its alias `count` arm a fault alike.
 */
import { describe, expect, it } from 'vitest';
import { call, testApp } from '../../testing/mock-app.js';

const TOKEN = 'qa';
const admin = { 'x-mock-admin-token': TOKEN };

describe('a match held to its operation', async () => {
  const app = await testApp({ adminToken: TOKEN });
  const post = (path: string, body: unknown) =>
    call(app, `/__mock${path}`, { key: null, headers: admin, body });
  /** The same match sent to each control that takes one. */
  const everywhere = async (match: Record<string, unknown>) => [
    // A stub always names its operation (a match without one is checked by the three below).
    ...(match.operationId === undefined ? [] : [await post('/stubs', { match, patch: {} })]),
    await post('/faults', { match, status: 500 }),
    await post('/requests/find', { match }),
    await post('/requests/verify', { match, times: 0 }),
  ];

  it.each([
    [
      { operationId: 'getProduct', params: { productId: 'LT6138' } },
      '/match/params/productId',
      'getProduct has no path parameter productId (it has product_id)',
    ],
    [
      { operationId: 'listProducts', query: { page: 1 } },
      '/match/query/page',
      'listProducts has no query parameter page (it has ',
    ],
    [
      { operationId: 'listProducts', query: { offset: 'abc' } },
      '/match/query/offset',
      'query parameter \\"offset\\" must be integer',
    ],
    [
      { operationId: 'listProducts', query: { offset: '01' } },
      '/match/query/offset',
      'no request matches: listProducts reads \\"01\\" as 1',
    ],
    [
      { operationId: 'listProducts', query: { offset: { n: 1 } } },
      '/match/query/offset',
      'no URL carries this query parameter value',
    ],
    [
      { operationId: 'listProducts', params: { product_id: 'LT6138' } },
      '/match/params/product_id',
      'listProducts has no path parameters',
    ],
    [
      { operationId: 'getProduct', body: { productId: 'LT6138' } },
      '/match/body',
      'getProduct (GET) takes no request body',
    ],
    [
      { query: { offset: 5 } },
      '/match/query',
      "query means one operation's input: name match.operationId",
    ],
  ])('refuses %j at %s', async (match, pointer, said) => {
    for (const res of await everywhere(match)) {
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(`body at \\"${pointer}\\": ${said}`);
    }
  });

  it('holds a match to the operation named beside it (a stub, a fault)', async () => {
    const stub = await post('/stubs', {
      operationId: 'getProduct',
      match: { params: { productId: 'LT6138' } },
      patch: { images: [] },
    });
    expect(stub.status).toBe(400);
    expect(stub.body.error).toContain(
      'body at "/match/params/productId": getProduct has no path parameter productId (it has product_id)',
    );
    const fault = await post('/faults', {
      operationId: 'listProducts',
      match: { query: { page: 1 } },
      status: 500,
    });
    expect(fault.status).toBe(400);
    expect(fault.body.error).toContain('body at "/match/query/page": listProducts has no query');
  });

  it('accepts what some request meets, as the mock parses it', async () => {
    for (const match of [
      { operationId: 'getProduct', params: { product_id: 'LT6138' } },
      { operationId: 'listProducts', query: { offset: 5, limit: '10' } },
      { operationId: 'searchProductParts', body: { productId: 'LT6138' } },
      { key: 'fullAccess' },
    ])
      for (const res of await everywhere(match))
        expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  });

  it('arms a fault for `times` requests, or `count` (its alias), not both', async () => {
    const byTimes = await post('/faults', { operationId: 'listProducts', status: 500, times: 2 });
    expect(byTimes.body).toMatchObject({ remaining: 2 });
    const byCount = await post('/faults', { operationId: 'listProducts', status: 500, count: 3 });
    expect(byCount.body).toMatchObject({ remaining: 3 });
    const byDefault = await post('/faults', { operationId: 'listProducts', status: 500 });
    expect(byDefault.body).toMatchObject({ remaining: 1 });
    const both = await post('/faults', {
      operationId: 'listProducts',
      status: 500,
      times: 1,
      count: 1,
    });
    expect(both.status).toBe(400);
    expect(both.body.error).toContain('either times or count');
    const outOfRange = await post('/faults', {
      operationId: 'listProducts',
      status: 500,
      times: 0,
    });
    expect(outOfRange.body.error).toContain('body at "/times": out of range');
  });
});
