/**
 * @module faults/routes
 * Armed faults over the admin API: `GET`, `POST` and `DELETE /__mock/faults` (and its first name,
 * `/scenarios`, still answering), `DELETE /__mock/faults/{id}` and `POST /__mock/faults/reset`
 * (the armed faults and the seeded random sequence). An arm request is read by arm-request.ts; a
 * fault the store refuses (too many armed) is a 400, a store away a 503.
 */
import type { Hono } from 'hono';
import type { Stores } from '../../state/stores.js';
import { matchContextOf, type AdminParts } from '../admin/admin-parts.js';
import { unavailable, type BodyOf } from '../admin/control-body.js';
import { apiError, badRequest } from '../errors.js';
import { ActionError } from './actions.js';
import { readArmRequest } from './arm-request.js';
import type { FaultPlan } from './fault-plan.js';

/** Where armed faults are managed: the name users say, then the first name, kept as an alias. */
export const FAULT_ROUTES = ['/faults', '/scenarios'] as const;

/** A fault the store would not arm: 503 while it is away, 400 naming the rule it breaks. */
function badAction(error: unknown): never {
  unavailable(error);
  if (error instanceof ActionError)
    throw apiError(400, error.message, {
      details: [{ in: 'body', name: '', rule: 'fault action', message: error.message }],
    });
  throw error;
}

export function faultRoutes(
  admin: Hono,
  parts: { state: AdminParts; plan: FaultPlan; store: Stores },
  bodyOf: BodyOf,
): void {
  const { state, plan, store } = parts;
  for (const route of FAULT_ROUTES) {
    admin.get(route, async (c) => c.json({ armed: await store.faults.armed() }));
    admin.post(route, async (c) => {
      const request = readArmRequest(await bodyOf(c), matchContextOf(state));
      if (Array.isArray(request)) throw badRequest(request);
      try {
        return c.json(await store.faults.arm(request.match, request.times, request.action), 201);
      } catch (error) {
        return badAction(error);
      }
    });
    admin.delete(route, async (c) => c.json({ cleared: await store.faults.disarm() }));
    admin.delete(`${route}/:id`, async (c) => {
      const cleared = await store.faults.disarm(c.req.param('id'));
      if (cleared === 0) throw apiError(404, `no armed fault ${c.req.param('id')}`);
      return c.json({ cleared });
    });
  }
  admin.post('/faults/reset', async (c) => {
    plan.reset();
    await store.faults.disarm();
    return c.json({ reset: true });
  });
}
