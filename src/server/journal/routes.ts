/**
 * @module journal/routes
 * The request journal over the admin API: `GET /__mock/requests` (the last `limit`, newest first;
 * `operationId` and `key` narrow them), `POST /__mock/requests/find` and `/requests/verify` (the
 * same match as faults and stubs), and `DELETE /__mock/requests`. Each answer carries the
 * journal's window.
 */
import type { Hono } from 'hono';
import { MAX_JOURNAL_SIZE } from '../../state/journal/journal.js';
import type { Stores } from '../../state/stores.js';
import { matchContextOf, type AdminParts } from '../admin/admin-parts.js';
import type { BodyOf } from '../admin/control-body.js';
import { apiError, badRequest } from '../errors.js';
import { readMatchOnly } from '../faults/arm-request.js';
import { readJournal } from './journal-window.js';
import { findRequests, readExpectation, verifyRequests } from './verify.js';

export function journalRoutes(
  admin: Hono,
  parts: { state: AdminParts; store: Stores },
  bodyOf: BodyOf,
): void {
  const { state, store } = parts;
  const matchOf = (value: unknown) => {
    const match = readMatchOnly(value, matchContextOf(state));
    if (Array.isArray(match)) throw badRequest(match);
    return match;
  };
  // The last `limit` API requests, newest first; `operationId` and `key` (a name, purpose or key)
  // narrow them with the same match as POST /requests/find.
  admin.get('/requests', async (c) => {
    const limit = Number(c.req.query('limit') ?? 50);
    // Bounded by the largest journal, so a default `limit` works with a small `--journal-size`.
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_JOURNAL_SIZE)
      throw apiError(400, `limit must be an integer from 1 to ${MAX_JOURNAL_SIZE}`);
    const operationId = c.req.query('operationId');
    const key = c.req.query('key');
    const { lines, window } = await readJournal(store.journal);
    if (operationId === undefined && key === undefined)
      return c.json({ requests: lines.slice(0, limit), window });
    const match = matchOf({
      ...(operationId === undefined ? {} : { operationId }),
      ...(key === undefined ? {} : { key }),
    });
    return c.json({ requests: findRequests(lines, match).slice(0, limit), window });
  });
  // The journal read with the same match as faults and stubs, newest first, with its window.
  admin.post('/requests/find', async (c) => {
    const body = await bodyOf(c);
    const match = matchOf(body.match);
    const { lines, window } = await readJournal(store.journal);
    return c.json({ requests: findRequests(lines, match), window });
  });
  admin.post('/requests/verify', async (c) => {
    const body = await bodyOf(c);
    const match = matchOf(body.match);
    const expectation = readExpectation(body);
    if (typeof expectation === 'string') throw apiError(400, expectation);
    const { lines, window } = await readJournal(store.journal);
    return c.json({ ...verifyRequests(lines, match, expectation, window), match, window });
  });
  admin.delete('/requests', async (c) => {
    await store.journal.clear();
    return c.json({ cleared: true });
  });
}
