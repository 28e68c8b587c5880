/**
 * @module server/base-path-pointer.test
 * A request that left out the base path (`/`, `/products`) is told where the API is and where its
 * reference is, as a 404 in the API's `{error}` shape; an unknown path under the base path keeps
 * the plain "No such path".
 */
import { describe, expect, it } from 'vitest';
import { testApp } from '../testing/mock-app.js';

describe('a path outside the base path', () => {
  it.each(['/', '/products'])('%s: 404 naming the base path and /docs', async (path) => {
    const app = await testApp();
    const res = await app.request(path, { headers: { 'x-api-key': 'demo-production-key' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: `No such path: ${path}. The API is under /web-data/v1 (e.g. /web-data/v1/products, with an x-api-key header); its reference is at /docs`,
    });
  });

  it('an unknown path under the base path: the plain answer', async () => {
    const app = await testApp();
    const res = await app.request('/web-data/v1/nothing');
    expect(await res.json()).toEqual({ error: 'No such path: /web-data/v1/nothing' });
  });
});
