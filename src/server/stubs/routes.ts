/**
 * @module stubs/routes
 * Stubs over the admin API: `POST /__mock/stubs` (read and judged by stub-request.ts; with
 * `dryRun: true` the judge's verdict alone, nothing stored), `GET /__mock/stubs`,
 * `DELETE /__mock/stubs` and `DELETE /__mock/stubs/{id}`. A full store is a 409, a store away a 503.
 */
import type { Hono } from 'hono';
import { newStub, StubLimitError } from '../../state/stubs/stubs.js';
import type { Stores } from '../../state/stores.js';
import { matchContextOf, type AdminParts } from '../admin/admin-parts.js';
import { unavailable, type BodyOf } from '../admin/control-body.js';
import { stubVerdict, takeDryRun } from '../console/dry-run.js';
import { apiError, badRequest } from '../errors.js';
import type { SampleAnswer } from './sample-answer.js';
import { readStubRequest } from './stub-request.js';

export function stubRoutes(
  admin: Hono,
  parts: {
    state: AdminParts;
    store: Stores;
    /** The dataset's answer to a request a match describes (a patch stub is judged on it). */
    sampleAnswer?: SampleAnswer;
  },
  bodyOf: BodyOf,
): void {
  const { state, store, sampleAnswer } = parts;
  admin.post('/stubs', async (c) => {
    if (!sampleAnswer) throw apiError(501, 'stubs are not available here');
    // `dryRun: true`: the judge's verdict, nothing stored (the console's live check).
    const { dryRun, rest } = takeDryRun(await bodyOf(c));
    const read = await readStubRequest(rest, { ...matchContextOf(state), sampleAnswer });
    if (dryRun) return c.json(stubVerdict(read));
    if (Array.isArray(read)) throw badRequest(read);
    try {
      return c.json(await store.stubs.add(newStub(read)), 201);
    } catch (error) {
      if (error instanceof StubLimitError) throw apiError(409, error.message);
      unavailable(error);
      throw error;
    }
  });
  admin.get('/stubs', async (c) => c.json({ stubs: await store.stubs.list() }));
  admin.delete('/stubs', async (c) => c.json({ removed: await store.stubs.remove() }));
  admin.delete('/stubs/:id', async (c) => {
    const removed = await store.stubs.remove(c.req.param('id'));
    if (removed === 0) throw apiError(404, `no stub ${c.req.param('id').slice(0, 100)}`);
    return c.json({ removed });
  });
}
