/**
 * @module examples.test
 * `GET /examples.json` works on any seed: every operation's example answers 200, the competitor
 * numbers give the match types they claim, the search examples match something and nothing, and
 * each demo key does what its purpose says.
 */
import { describe, expect, it } from 'vitest';
import type { Examples } from './examples.js';
import { call, DEMO, testApp } from '../testing/mock-app.js';

describe.each([1, 42, 7])('GET /examples.json on seed %i', async (seed) => {
  const app = await testApp({ seed, apiVersion: 'unreleased' });
  const examples = (await call(app, 'http://mock.test/examples.json', { key: null }))
    .body as Examples;
  const key = examples.keys.byPurpose.fullAccess!.key;

  it('needs no key and names the running seed and release', () => {
    expect(examples).toMatchObject({
      seed,
      scale: 1,
      release: 'unreleased',
      environment: 'production',
      basePath: '/web-data/v1',
    });
  });

  it('has identifiers with "#" and with spaces, and every one resolves', async () => {
    expect(examples.ids.productParts.some((id) => id.includes('#'))).toBe(true);
    expect(examples.ids.softwareTools.every((id) => id.includes(' '))).toBe(true);
    for (const [family, ids] of Object.entries(examples.ids))
      expect(ids.length, family).toBeGreaterThan(0);
    expect(
      (
        await call(app, `/product-parts/${encodeURIComponent(examples.ids.productParts[0])}`, {
          key,
        })
      ).body.orderableId,
    ).toBe(examples.ids.productParts[0]);
  });

  it('gives one working request per operation of the release', async () => {
    expect(Object.keys(examples.operations).sort()).toEqual(
      app.state.contract.operations.map((op) => op.operationId).sort(),
    );
    for (const [operationId, example] of Object.entries(examples.operations)) {
      const res = await call(app, example.path, {
        key,
        method: example.method,
        body: example.body,
      });
      expect(
        res.status,
        `${operationId} ${example.method} ${example.path}: ${res.text.slice(0, 200)}`,
      ).toBe(200);
    }
  });

  it('names competitor numbers with every match type, and one the dataset does not know', async () => {
    expect(Object.keys(examples.crossReference.byMatchType).sort()).toEqual([
      'Drop-in',
      'Footprint',
      'Functional',
    ]);
    const res = await call(app, '/product-parts/cross-reference', {
      key,
      body: { partNumbers: examples.crossReference.partNumbers },
    });
    const typesOf = (pn: string) =>
      new Set(
        res.body.data
          .find((r: { partNumber: string }) => r.partNumber === pn)
          .results.map((m: { matchType: string }) => m.matchType),
      );
    for (const [type, entry] of Object.entries(examples.crossReference.byMatchType))
      expect(typesOf(entry.partNumber).has(type), type).toBe(true);
    expect(typesOf(examples.crossReference.unknown).size).toBe(0);
  });

  it('has a search that matches and one that matches nothing', async () => {
    const matching = await call(app, '/product-parts/search', {
      key,
      body: examples.search.matching.body,
    });
    expect(matching.body.pagination.total).toBeGreaterThan(0);
    const empty = await call(app, '/product-parts/search', {
      key,
      body: examples.search.empty.body,
    });
    expect(empty.status).toBe(200);
    expect(empty.body.pagination.total).toBe(0);
  });

  it('has a document with a download of the size it says', async () => {
    const { dcpDocumentId, bytes, contentType } = examples.download;
    const res = await app.request(
      `http://mock.test/web-data/v1/documents/download/${dcpDocumentId}`,
      { headers: { 'x-api-key': key } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(contentType);
    expect((await res.arrayBuffer()).byteLength).toBe(bytes);
  });

  it('sorts the demo keys by what they demonstrate', async () => {
    const { byPurpose } = examples.keys;
    expect((await call(app, '/documents', { key: byPurpose.restricted!.key })).status).toBe(403);
    expect(byPurpose.restricted!.lacks).toContain('documents');
    expect((await call(app, '/packages', { key: byPurpose.expired!.key })).status).toBe(401);
    expect((await call(app, '/packages', { key: byPurpose.otherEnvironment!.key })).status).toBe(
      401,
    );
    expect(byPurpose.rateLimited!.tier).toBe('trial');
    expect(byPurpose.loadTest!.tier).toBe('unlimited');
    expect(byPurpose.fullAccess!.name).toBe('demo-production');
  });
});

describe('GET /examples.json on an older release', () => {
  it('lists only the operations that release served', async () => {
    const app = await testApp({ apiVersion: '1.1.0' });
    const examples = (await call(app, 'http://mock.test/examples.json', { key: null }))
      .body as Examples;
    expect(Object.keys(examples.operations).sort()).toEqual(
      app.state.contract.operations.map((op) => op.operationId).sort(),
    );
    expect(examples.operations.listProducts).toBeUndefined();
  });
});

describe('the reference page uses the examples', () => {
  it('fills every path parameter and request body, and each filled-in request answers 200', async () => {
    const app = await testApp({ seed: 42, apiVersion: 'unreleased' });
    const config = await (await app.request('http://mock.test/docs/config.json')).json();
    expect(config.document).toBe('/docs/openapi.json');
    const document = await (await app.request('http://mock.test/docs/openapi.json')).json();
    let operations = 0;
    for (const [template, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const method of ['get', 'head', 'post'].filter((m) => item[m])) {
        const op = item[method];
        const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].filter(
          (p: { in: string }) => p.in === 'path',
        );
        for (const p of parameters)
          expect(p.example, `${op.operationId} ${p.name}`).toEqual(expect.any(String));
        const path = template.replace(/\{([^}]+)\}/g, (_, name) =>
          encodeURIComponent(parameters.find((p: { name: string }) => p.name === name).example),
        );
        const body = op.requestBody?.content['application/json'].example;
        if (op.requestBody) expect(body, op.operationId).toBeDefined();
        const res = await call(app, path, {
          key: DEMO.production,
          method: method.toUpperCase(),
          body,
        });
        expect(res.status, `${op.operationId} ${path}`).toBe(200);
        operations += 1;
      }
    }
    expect(operations).toBe(app.state.contract.operations.length);
    // The introduction carries the table of kinds of fact for the served release.
    expect(document.info.description).toContain('## Kinds of fact');
    expect(document.info.description).toContain('| `POST /product-parts/search` | reference |');
    // The raw document stays as written.
    const raw = await (await app.request('http://mock.test/openapi.json')).json();
    expect(raw.paths['/product-parts/{orderable_id}'].get.parameters[0].example).toBeUndefined();
    expect(raw.info.description).not.toContain('## Kinds of fact');
  });
});
