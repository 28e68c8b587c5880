/**
 * @module pipeline/validate.test
 * Parsed path and query inputs are cached per operation and exact URL: a repeated request gets the
 * same answer, and a URL differing only in its query is validated on its own (a bad value after a
 * good one is still a 400, every time); likewise JSON bodies per exact text, after the content-type
 * check.
 */
import { describe, expect, it } from 'vitest';
import { call, testApp } from '../../testing/mock-app.js';

describe('validated input cache', async () => {
  const app = await testApp();

  it('validates every distinct query on its own, before and after a cached one', async () => {
    const first = await call(app, '/products?limit=5');
    const again = await call(app, '/products?limit=5');
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.text).toBe(first.text);
    expect((first.body as { data: unknown[] }).data).toHaveLength(5);
    for (const bad of [
      '/products?limit=0',
      '/products?limit=5&limit=5',
      '/products?limit=5&nope=1',
      '/products?limit=5x',
    ]) {
      expect((await call(app, bad)).status, bad).toBe(400);
      expect((await call(app, bad)).status, `${bad} again`).toBe(400);
    }
    expect((await call(app, '/products?limit=6')).body.data).toHaveLength(6);
  });

  it('parses every distinct body on its own, and never lets a cached body skip the content-type check', async () => {
    const partNumbers = ['NO-SUCH-PART-1'];
    const body = JSON.stringify({ partNumbers });
    const ok = await call(app, '/product-parts/cross-reference', { body });
    expect(ok.status).toBe(200);
    expect((await call(app, '/product-parts/cross-reference', { body })).text).toBe(ok.text);
    expect(
      (
        await call(app, '/product-parts/cross-reference', {
          body,
          headers: { 'content-type': 'text/plain' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await call(app, '/product-parts/cross-reference', {
          body: JSON.stringify({ partNumbers: 5 }),
        })
      ).status,
    ).toBe(400);
    expect((await call(app, '/product-parts/cross-reference', { body: `${body} ` })).status).toBe(
      200,
    );
  });
});
