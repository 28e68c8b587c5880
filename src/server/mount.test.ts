/**
 * @module mount.test
 * The document and `/docs` are built on their first request: every route docs.ts registers is
 * reachable through the routes the app mounts up front, and a path there that docs.ts does not
 * serve gets the app's own 404.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { mountDocs } from './docs-page/docs.js';
import { DOCS_ROUTES } from './mount.js';
import { testApp, TEST_ORIGIN } from '../testing/mock-app.js';

describe('the document and /docs, on demand', () => {
  it('mounts routes that cover every route docs.ts registers', () => {
    const docs = new Hono();
    mountDocs(docs, {
      specText: 'openapi: 3.1.0',
      apiBaseUrl: '/web-data/v1',
      examples: {},
      kindsOfFact: () => '',
    });
    const paths = docs.routes.map((route) => route.path);
    expect(paths.length).toBeGreaterThan(4);
    const covered = (path: string) =>
      DOCS_ROUTES.some((route) =>
        route.endsWith('/*') ? path.startsWith(route.slice(0, -1)) : path === route,
      );
    expect(paths.filter((path) => !covered(path))).toEqual([]);
  });

  it('serves the page and the document, and answers an unknown path below /docs as the app does', async () => {
    const app = await testApp();
    const page = await app.request(`${TEST_ORIGIN}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const yaml = await app.request(`${TEST_ORIGIN}/openapi.yaml`);
    expect(yaml.status).toBe(200);
    expect(await yaml.text()).toContain('openapi:');
    const head = await app.request(`${TEST_ORIGIN}/openapi.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const unknown = await app.request(`${TEST_ORIGIN}/docs/no-such-file`);
    const elsewhere = await app.request(`${TEST_ORIGIN}/no-such-file`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: ((await elsewhere.json()) as { error: string }).error.replace(
        '/no-such-file',
        '/docs/no-such-file',
      ),
    });
  });
});
