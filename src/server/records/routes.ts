/**
 * @module records/routes
 * The record edits over the admin API: `PUT /__mock/records/{family}/{id}` with the record as the
 * body (or `POST /__mock/records/{family}`: the identifier read from the record), `DELETE /__mock/records/{family}/{id}`, `GET /__mock/records` (the edits in order) and
 * `DELETE /__mock/records` (back to the seed's dataset). A refused record is a 400 naming each
 * pointer, rule and kind of fact.
 */
import type { Context, Env, Hono } from 'hono';
import type { BodyOf } from '../admin/control-body.js';
import { apiError } from '../errors.js';
import { RecordLogFullError, RecordLogUnavailableError } from '../../state/records/records.js';
import { problemLine, type RecordProblem } from './record-schema.js';
import { RecordEditError, type RecordControl } from './control.js';

/** At most this many problems are listed in one answer. */
const MAX_PROBLEMS = 20;

/** The admin answer for a refused record edit (400/404), a full log (400) or a shared log away (503). */
export function refusal(error: unknown): never {
  if (error instanceof RecordEditError) {
    const problems: RecordProblem[] = error.problems.slice(0, MAX_PROBLEMS);
    throw apiError(
      error.status,
      problems.length > 0
        ? `${error.message}: ${problems.map(problemLine).join('; ')}`
        : error.message,
      problems.length > 0
        ? {
            details: problems.map((p) => ({
              in: 'body',
              name: p.pointer,
              rule: p.rule,
              message: p.message,
              source: p.source,
            })),
          }
        : {},
    );
  }
  if (error instanceof RecordLogFullError) throw apiError(400, error.message);
  if (error instanceof RecordLogUnavailableError) throw apiError(503, error.message);
  throw error;
}

export function recordRoutes(admin: Hono, control: RecordControl, bodyOf: BodyOf): void {
  admin.get('/records', async (c) => c.json({ edits: await control.edits().catch(refusal) }));
  admin.delete('/records', async (c) => {
    await control.clear().catch(refusal);
    return c.json({ cleared: true });
  });
  const put = async (c: Context<Env, string>, id?: string) => {
    try {
      const result = await control.put(c.req.param('family') ?? '', await bodyOf(c), id);
      return c.json(result, result.created ? 201 : 200);
    } catch (error) {
      return refusal(error);
    }
  };
  admin.post('/records/:family', (c) => put(c));
  admin.put('/records/:family/:id', (c) => put(c, c.req.param('id')));
  admin.delete('/records/:family/:id', async (c) => {
    try {
      return c.json({ removed: await control.remove(c.req.param('family'), c.req.param('id')) });
    } catch (error) {
      return refusal(error);
    }
  });
}
