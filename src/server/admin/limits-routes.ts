/**
 * @module admin/limits-routes
 * The rate limits over the admin API: `GET /__mock/rate-limits` (each key's windows) and
 * `POST /__mock/rate-limits/reset` (one key's, by `key`, or every key's).
 */
import type { Hono } from 'hono';
import type { Stores } from '../../state/stores.js';
import type { BodyOf } from './control-body.js';

export function limitsRoutes(admin: Hono, store: Stores, bodyOf: BodyOf): void {
  admin.post('/rate-limits/reset', async (c) => {
    const { key } = await bodyOf(c);
    await store.limits.reset(typeof key === 'string' ? key : undefined);
    return c.json({ reset: typeof key === 'string' ? key : 'all' });
  });
  admin.get('/rate-limits', async (c) => c.json(await store.limits.usage()));
}
