/**
 * @module journal/journal.test
 * What the client sent, verified: the journal keeps per API request its operation, parsed
 * parameters and query, the headers that matter, the JSON body (bounded, marked when cut) and
 * never a key's secret; control calls are kept out. `requests(match)` and `verify(match, n)` use
 * the same match as faults; a failed verify shows the pattern and the closest requests, member by
 * member. Over real HTTP: the journal sees what came over the socket.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMock, VerificationError, type RunningMock } from '../../index.js';
import { MAX_JOURNAL_BODY_CHARS } from './request-record.js';

let mock: RunningMock;
let productId: string;
const search = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${mock.url}/product-parts/search`, {
    method: 'POST',
    headers: { 'x-api-key': mock.keys.fullAccess, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  mock = await startMock({ adminToken: 'qa' });
  const res = await fetch(`${mock.url}/products?limit=1`, {
    headers: { 'x-api-key': mock.keys.fullAccess },
  });
  productId = ((await res.json()) as { data: { productId: string }[] }).data[0].productId;
});
afterAll(() => mock?.close());
beforeEach(() => mock.qa.clearJournal());

describe('the journal', () => {
  it('keeps the operation, parsed query, headers that matter and the body; never the key', async () => {
    const key = mock.keys.fullAccess;
    await (
      await fetch(`${mock.url}/products?limit=5&offset=01`, {
        headers: { 'x-api-key': key, 'user-agent': 'client/1.0', 'x-request-id': key },
      })
    ).text();
    await (await search({ productId, note: key }, { accept: 'application/json' })).text();
    await mock.qa.armedFaults(); // a control call: not journaled
    const [post, get] = await mock.qa.requests();
    expect(get).toMatchObject({
      method: 'GET',
      operation: 'listProducts',
      keyPurpose: 'fullAccess',
      query: { limit: 5, offset: 1 },
      headers: { 'user-agent': 'client/1.0', 'x-request-id': '***' },
      status: 200,
    });
    expect(post).toMatchObject({
      operation: 'searchProductParts',
      body: { productId, note: '***' },
      headers: { accept: 'application/json', 'content-type': 'application/json' },
    });
    const all = JSON.stringify(await mock.qa.journal(50));
    expect(all).not.toContain(key);
    expect(all).not.toContain('__mock');
  });

  it('answers 400 over the socket to a JSON body nested 5,000 deep (the journal walks no deeper than its bound)', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    for (const path of ['/product-parts/search', '/product-parts/cross-reference']) {
      const res = await fetch(`${mock.url}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': mock.keys.fullAccess, 'content-type': 'application/json' },
        body: deep,
      });
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBeTruthy();
    }
    const [last] = await mock.qa.journal(1);
    expect(last).toMatchObject({ status: 400, bodyText: deep });
  });

  it('keeps a long body cut and marked', async () => {
    await (await search({ productId, pad: 'x'.repeat(MAX_JOURNAL_BODY_CHARS) })).text();
    const [entry] = await mock.qa.requests({ operationId: 'searchProductParts' });
    expect(entry.bodyCut).toBe(true);
    expect(entry.bodyText).toHaveLength(MAX_JOURNAL_BODY_CHARS);
    expect(entry.body).toBeUndefined();
  });
});

describe('requests and verify', () => {
  it('find by the same match as faults; verify counts exactly, at least, at most', async () => {
    await (await search({ productId, filters: [] })).text();
    await (await search({ productId, limit: 20 })).text();
    const found = await mock.qa.requests({
      operationId: 'searchProductParts',
      body: { productId, limit: 20 },
    });
    expect(found).toHaveLength(1);
    await mock.qa.verify({ operationId: 'searchProductParts' }, { times: 2 });
    await mock.qa.verify(
      { operationId: 'searchProductParts', body: { productId } },
      { atLeast: 1 },
    );
    await mock.qa.verify({ operationId: 'listPackages' }, { atMost: 0 });
    await expect(
      mock.qa.verify({ operationId: 'searchProductParts' }, { times: 1 }),
    ).rejects.toThrow(/expected exactly 1 request\(s\) matching .*received 2/);
  });

  it('fails with the pattern and the closest requests, each differing member expected vs actual', async () => {
    await (await search({ productId, limit: 20 })).text();
    await (
      await fetch(`${mock.url}/packages?limit=1`, {
        headers: { 'x-api-key': mock.keys.fullAccess },
      })
    ).text();
    const failed = mock.qa.verify({
      operationId: 'searchProductParts',
      body: { productId, limit: 10, filters: [] },
    });
    await expect(failed).rejects.toBeInstanceOf(VerificationError);
    const message = await failed.then(
      () => '',
      (error: Error) => error.message,
    );
    expect(message).toContain('received 0');
    expect(message).toContain('closest requests received:');
    // The search (two members differ) before the packages list (operation and body differ).
    const lines = message.split('\n');
    const first = lines.findIndex((l) => l.includes('1. POST'));
    expect(lines[first + 1]).toContain('/body/limit: expected 10, actual 20');
    expect(lines[first + 2]).toContain('/body/filters: expected [], actual (absent)');
    expect(message).toMatch(/2\. GET "\/web-data\/v1\/packages\?limit=1"/);
  });

  it('GET /__mock/requests narrows by operationId and key (by purpose)', async () => {
    await (await search({ productId })).text();
    await (
      await fetch(`${mock.url}/packages?limit=1`, {
        headers: { 'x-api-key': mock.keys.fullAccess },
      })
    ).text();
    const admin = { 'x-mock-admin-token': 'qa' };
    const res = await fetch(
      `${mock.origin}/__mock/requests?operationId=listPackages&key=fullAccess`,
      { headers: admin },
    );
    const { requests } = (await res.json()) as { requests: { operation: string }[] };
    expect(requests.map((r) => r.operation)).toEqual(['listPackages']);
    const unknown = await fetch(`${mock.origin}/__mock/requests?operationId=nope`, {
      headers: admin,
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain('/match/operationId');
  });

  it('refuses a wrong-typed match or two expectations, naming the field', async () => {
    const res = await fetch(`${mock.origin}/__mock/requests/verify`, {
      method: 'POST',
      headers: { 'x-mock-admin-token': 'qa', 'content-type': 'application/json' },
      body: JSON.stringify({ match: { query: 5 }, times: 1 }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('/match/query');
    const two = await fetch(`${mock.origin}/__mock/requests/verify`, {
      method: 'POST',
      headers: { 'x-mock-admin-token': 'qa', 'content-type': 'application/json' },
      body: JSON.stringify({ times: 1, atLeast: 1 }),
    });
    expect(two.status).toBe(400);
    expect(await two.text()).toContain('times and atLeast');
  });
});
