/**
 * @module handlers/post-cache.test
 * POST answers (cross-reference, parametric search) are cached per operation and validated body:
 * the same body gets the same bytes, another body its own answer, and a refused body (404, 400)
 * is refused every time (errors are never cached).
 */
import { describe, expect, it } from 'vitest';
import type { Examples } from '../examples.js';
import { call, testApp } from '../../testing/mock-app.js';

describe('POST answers cached per body', async () => {
  const app = await testApp();
  const examples = (await call(app, 'http://mock.test/examples.json')).body as Examples;
  const { searchProductParts: search, crossReferenceProductParts: crossReference } =
    examples.operations;

  it('answers the same body with the same bytes, and another body with its own answer', async () => {
    for (const op of [search, crossReference]) {
      const first = await call(app, op.path, { body: op.body });
      const again = await call(app, op.path, { body: op.body });
      expect([first.status, again.status], op.path).toEqual([200, 200]);
      expect(again.text).toBe(first.text);
    }
    const matching = await call(app, search.path, { body: examples.search.matching.body });
    const empty = await call(app, search.path, { body: examples.search.empty.body });
    expect(matching.body.data.length).toBeGreaterThan(0);
    expect(empty.body.data).toEqual([]);
  });

  it('refuses an unknown product every time', async () => {
    const body = { ...(examples.search.matching.body as object), productId: 'NO-SUCH-PRODUCT' };
    for (let k = 0; k < 2; k++) expect((await call(app, search.path, { body })).status).toBe(404);
  });
});
