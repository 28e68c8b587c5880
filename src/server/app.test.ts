import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { call, DEMO, testApp } from '../testing/mock-app.js';

describe('auth', async () => {
  const app = await testApp();
  it.each([
    ['no key', null, 401],
    ['an unknown key', 'not-a-key', 401],
    ['an expired key', DEMO.expired, 401],
    ['a staging key on production', DEMO.staging, 401],
  ])('answers %s with 401 {error, code}', async (_what, key, status) => {
    const res = await call(app, '/products', { key });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: expect.any(String), code: 401 });
  });
  it('answers a key without the family with 403 {error, code} and lets it call other families', async () => {
    const forbidden = await call(app, '/documents', { key: DEMO.noDocuments });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: expect.stringContaining('documents'), code: 403 });
    expect((await call(app, '/products', { key: DEMO.noDocuments })).status).toBe(200);
  });
  it('never echoes the key', async () => {
    const res = await call(app, '/products', { key: 'secret-looking-key-123' });
    expect(res.text).not.toContain('secret-looking-key-123');
  });
});

describe('routing', async () => {
  const app = await testApp();
  it('never takes a static segment for an identifier', async () => {
    const attributes = await call(app, '/product-parts/attributes');
    expect(attributes.status).toBe(200);
    expect(attributes.body.data[0]).toHaveProperty('attributeType');
    expect((await call(app, '/documents/types')).body.data[0]).toHaveProperty('subTypes');
  });
  it('answers unknown paths with 404 JSON and known paths with a wrong method with 405 and Allow', async () => {
    expect(await call(app, '/nope')).toMatchObject({
      status: 404,
      body: { error: expect.stringContaining('/web-data/v1/nope') },
    });
    const post = await call(app, '/products', { method: 'POST', body: {} });
    expect(post).toMatchObject({
      status: 405,
      body: { error: expect.stringContaining('not allowed') },
    });
    expect(Object.keys(post.body)).toEqual(['error']);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(
      (await call(app, '/product-parts/search', { method: 'DELETE' })).headers.get('allow'),
    ).toBe('POST');
  });
  it.each(['/product-parts/search', '/product-parts/cross-reference'])(
    'answers GET and HEAD on the POST-only %s with 405 and Allow: POST, not as an orderable id',
    async (path) => {
      for (const method of ['GET', 'HEAD']) {
        const res = await call(app, path, { method });
        expect(res.status, method).toBe(405);
        expect(res.headers.get('allow'), method).toBe('POST');
      }
      expect((await call(app, path, { method: 'GET' })).body).toEqual({
        error: expect.stringContaining('not allowed'),
      });
    },
  );
  it('still takes any other segment below /product-parts for an orderable id', async () => {
    expect(await call(app, '/product-parts/NO-SUCH-PART')).toMatchObject({ status: 404 });
    expect(await call(app, '/documents/agile-id')).toMatchObject({ status: 404 });
  });
});

describe('the served document', () => {
  it('is the served release: trimmed by x-since, so the docs page lists what the mock serves', async () => {
    const paths = async (apiVersion?: string) =>
      Object.keys(
        (
          await (
            await (await testApp({ apiVersion })).request('http://mock.test/openapi.json')
          ).json()
        ).paths,
      );
    expect(await paths('1.0.0')).toEqual(['/product-parts', '/product-parts/{orderable_id}']);
    expect(await paths()).not.toContain('/documents/download/{dcp_id}');
    expect(await paths('unreleased')).toContain('/documents/download/{dcp_id}');
  });
});

describe('input validation', async () => {
  const app = await testApp();
  /** The 400's one line: the reference's plain `{error}`, naming where, the rule and the value received. */
  const problem = async (path: string, init: Parameters<typeof call>[2] = {}): Promise<string> => {
    const res = await call(app, path, init);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['error']);
    return res.body.error as string;
  };
  it.each([
    ['/products?limit=abc', ['query "limit"', 'rule: type: integer', 'received: "abc"']],
    ['/products?limit=0', ['query "limit"', 'rule: minimum: 1']],
    ['/products?limit=101', ['query "limit"', 'rule: maximum: 100']],
    ['/products?offset=-1', ['query "offset"', 'rule: minimum: 0']],
    ['/products?colour=red', ['query "colour"', 'declared parameters']],
    ['/products?limit=1&limit=2', ['query "limit"', 'at most once']],
    [
      '/products?order=price',
      ['query "order"', 'rule: enum: wwwUpdateDate, title', 'received: "price"'],
    ],
    ['/products?order=title,title', ['query "order"', 'rule: uniqueItems']],
    ['/products?order=', ['query "order"', 'rule: enum: wwwUpdateDate, title', 'received: ""']],
    ['/products?orderDirection=', ['query "orderDirection"', 'rule: enum: asc, desc']],
    ['/products?category=', ['query "category"', 'rule: minLength: 1']],
    [
      `/products?offset=${2 ** 53 + 2}`,
      ['query "offset"', 'rule: maximum: 100000000', `received: "${2 ** 53 + 2}"`],
    ],
    ['/documents?offset=1e400', ['query "offset"', 'rule: type: integer']],
    [
      '/products?limit=-99999999999999999999',
      ['query "limit"', 'rule: minimum: 1', 'received: "-99999999999999999999"'],
    ],
    [
      '/products?order=title,wwwUpdateDate&orderDirection=asc,desc,asc',
      ['query "orderDirection"', 'one per property'],
    ],
    ['/boards-kits?boardKitType=toy', ['query "boardKitType"', 'enum: development']],
    [
      '/software-tools?includeDiscontinued=yes',
      ['query "includeDiscontinued"', 'rule: type: boolean'],
    ],
    [
      '/documents?documentRevisionDateStart=yesterday',
      ['query "documentRevisionDateStart"', 'rule: format: date'],
    ],
    ['/documents?language=fr', ['query "language"', 'rule: enum: en, ja, zh-hans']],
    [
      '/products?category=%E0%A4%A',
      ['query "category"', 'rule: valid percent-encoding (RFC 3986)'],
    ],
    ['/products/%E0%A4', ['path "product_id"']],
  ])('%s -> 400 naming the parameter and rule', async (path, parts) => {
    const error = await problem(path);
    for (const part of parts) expect(error).toContain(part);
  });
  it('refuses what the document refuses: an empty or repeated sort list, an empty filter', async () => {
    // The document's own rules (compiled as any schema-driven client would), beside the mock's answers.
    const ajv = new Ajv2020({ strict: false });
    const checked: string[] = [];
    for (const op of app.state.contract.operations) {
      if (op.method !== 'get' || op.path.includes('{')) continue;
      const query = op.parameters.filter((p) => p.in === 'query');
      const lists = query.filter((p) => p.commaJoined);
      const texts = query.filter(
        (p) => p.schema.type === 'string' && !p.schema.enum && !p.schema.format,
      );
      for (const p of [...lists, ...texts]) {
        const accepts = ajv.compile(p.schema);
        const first = (p.schema.items as { enum?: string[] } | undefined)?.enum?.[0];
        const bad = p.commaJoined ? [[], ...(p.name === 'order' ? [[first, first]] : [])] : [''];
        for (const value of bad) expect(accepts(value), `${op.operationId} ${p.name}`).toBe(false);
        const raw = Array.isArray(bad.at(-1)) ? (bad.at(-1) as string[]).join(',') : '';
        expect(
          (await call(app, `${op.path}?${p.name}=${raw}`)).status,
          `${op.path}?${p.name}=${raw}`,
        ).toBe(400);
        checked.push(`${op.operationId}?${p.name}`);
      }
    }
    expect(checked).toContain('listProducts?order');
    expect(checked).toContain('listSoftwareTools?softwareToolName');
  });
  it('names every problem of one request in the one line', async () => {
    const error = await problem('/products?limit=0&offset=-1&colour=red');
    for (const part of ['query "limit"', 'query "offset"', 'query "colour"'])
      expect(error).toContain(part);
  });
  it('names body problems by JSON pointer', async () => {
    expect(
      await problem('/product-parts/cross-reference', {
        body: { partNumbers: Array.from({ length: 201 }, (_, i) => `X${i}`) },
      }),
    ).toContain('body at "/partNumbers"');
    expect(
      await problem('/product-parts/cross-reference', {
        body: { partNumbers: Array.from({ length: 201 }, (_, i) => `X${i}`) },
      }),
    ).toContain('rule: maxItems: 200');
    expect(
      await problem('/product-parts/cross-reference', { body: '{"partNumbers": [' }),
    ).toContain('rule: valid JSON (RFC 8259)');
    expect(
      await problem('/product-parts/cross-reference', {
        body: { partNumbers: ['A'] },
        headers: { 'content-type': 'text/plain' },
      }),
    ).toContain('header "content-type"');
    expect(await problem('/product-parts/search', { body: { filters: [] } })).toContain(
      'body at "/productId"',
    );
  });
  it('answers an oversized body with 413 {error}', async () => {
    const res = await call(app, '/product-parts/cross-reference', {
      body: JSON.stringify({ partNumbers: ['x'.repeat(2 * 1024 * 1024)] }),
    });
    expect(res).toMatchObject({ status: 413, body: { error: expect.any(String) } });
    expect(Object.keys(res.body)).toEqual(['error']);
  });
});

describe('lists', async () => {
  const app = await testApp();
  it('walks every page: offset = page x limit, has_more exact, total distinct items', async () => {
    const seen = new Set<string>();
    let page = 0;
    let total = 0;
    for (;;) {
      const res = await call(app, `/boards-kits?limit=7&offset=${page}`);
      expect(res.status).toBe(200);
      const { pagination, data } = res.body;
      total = pagination.total;
      expect(pagination).toMatchObject({ offset: page * 7, limit: 7 });
      expect(pagination.has_more).toBe((page + 1) * 7 < total);
      for (const item of data) seen.add(item.boardKitId);
      if (!pagination.has_more) break;
      page += 1;
    }
    expect(total).toBeGreaterThan(20);
    expect(seen.size).toBe(total);
    expect((await call(app, `/boards-kits?limit=7&offset=${page + 5}`)).body).toMatchObject({
      data: [],
      pagination: { total, has_more: false },
    });
  });
  it.each([
    ['/products', 'productId'],
    ['/product-parts', 'orderableId'],
    ['/product-parts/attributes', 'productPartAttributeId'],
    ['/documents', 'agileId'],
    ['/documents/types', 'type'],
    ['/boards-kits', 'boardKitId'],
    ['/packages', 'packageCode'],
    ['/software-tools', 'softwareToolName'],
  ])('%s: walking every page yields total distinct items', async (list, id) => {
    const seen = new Set<string>();
    let total = -1;
    for (let page = 0; ; page++) {
      const { body } = await call(app, `${list}?limit=33&offset=${page}`);
      total = body.pagination.total;
      for (const item of body.data) seen.add(item[id]);
      if (!body.pagination.has_more) break;
    }
    expect(total).toBeGreaterThan(10);
    expect(seen.size).toBe(total);
  });
  it('sorts by the default (wwwUpdateDate desc) and by several keys with one direction each', async () => {
    const dates = (await call(app, '/products?limit=50')).body.data.map(
      (p: { wwwUpdateDate: string }) => p.wwwUpdateDate,
    );
    expect(dates).toEqual([...dates].sort().reverse());
    const boards = (
      await call(app, '/boards-kits?limit=100&order=boardKitType,title&orderDirection=asc,desc')
    ).body.data as { boardKitType: string; title: string }[];
    for (let i = 1; i < boards.length; i++) {
      const [a, b] = [boards[i - 1], boards[i]];
      expect(a.boardKitType <= b.boardKitType).toBe(true);
      if (a.boardKitType === b.boardKitType)
        expect(a.title.toLowerCase() >= b.title.toLowerCase()).toBe(true);
    }
  });
  it('filters: every result matches, matching is case-insensitive, and nothing matching is missed', async () => {
    const all = (await call(app, '/boards-kits?limit=100')).body.data as {
      boardKitType: string;
      category: { level: number; title: string }[];
    }[];
    expect(all.length).toBe((await call(app, '/boards-kits?limit=1')).body.pagination.total);
    const evaluation = (await call(app, '/boards-kits?limit=100&boardKitType=evaluation')).body;
    expect(evaluation.pagination.total).toBe(
      all.filter((b) => b.boardKitType === 'evaluation').length,
    );
    expect(
      evaluation.data.every((b: { boardKitType: string }) => b.boardKitType === 'evaluation'),
    ).toBe(true);
    const category = all.find((b) => b.category.length)!.category[0].title;
    const byCategory = (
      await call(
        app,
        `/boards-kits?limit=100&category=${encodeURIComponent(category.toUpperCase())}`,
      )
    ).body;
    expect(byCategory.pagination.total).toBe(
      all.filter((b) => b.category.some((e) => e.title === category)).length,
    );
  });
});

describe('by-ID endpoints', async () => {
  const app = await testApp();
  it('round-trips # as %23 and titles with spaces', async () => {
    const parts = (await call(app, '/product-parts?limit=100')).body.data as {
      orderableId: string;
    }[];
    const hashed = parts.find((p) => p.orderableId.includes('#'))!;
    const part = await call(app, `/product-parts/${encodeURIComponent(hashed.orderableId)}`);
    expect(part.body.orderableId).toBe(hashed.orderableId);
    const tool = (await call(app, '/software-tools?limit=1')).body.data[0];
    expect(tool.softwareToolName).toContain(' ');
    expect(
      (await call(app, `/software-tools/${encodeURIComponent(tool.softwareToolName)}`)).body
        .softwareToolName,
    ).toBe(tool.softwareToolName);
  });
  it.each([
    '/products/NOPE',
    '/product-parts/NOPE%23X',
    '/documents/NOPE',
    '/documents/agile-id/NOPE',
    '/boards-kits/NOPE',
    '/packages/NOPE',
    '/software-tools/No%20Such%20Tool',
    '/product-parts/attributes/NOPE',
  ])('%s -> 404 {error}', async (path) => {
    const res = await call(app, path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.stringMatching(/not found/) });
  });
  it('serves the 1.2.0 product shape from release 1.3.0 and the 1.0.0 shape before', async () => {
    const id = (await call(app, '/products?limit=1')).body.data[0].productId;
    const latest = (await call(app, `/products/${id}`)).body;
    expect(latest).toHaveProperty('applicationBlockDiagrams');
    expect(latest).not.toHaveProperty('relatedProducts');
    const old = await testApp({ apiVersion: '1.2.0' });
    const shaped = (await call(old, `/products/${id}`)).body;
    expect(shaped).toHaveProperty('relatedProducts');
    expect(shaped).not.toHaveProperty('applicationBlockDiagrams');
  });
});
