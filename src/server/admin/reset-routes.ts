/**
 * @module admin/reset-routes
 * `POST /__mock/reset`, the one call between tests: stubs, armed faults (and the seeded random
 * sequence), the journal, rate-limit windows, the clock offset, the record edits (DECISIONS 98
 * says what stays), and whatever the reset hooks clear.
 */
import type { Hono } from 'hono';
import type { Stores } from '../../state/stores.js';
import type { FaultPlan } from '../faults/fault-plan.js';
import { refusal } from '../records/routes.js';
import type { RecordControl } from '../records/control.js';

export function resetRoutes(
  admin: Hono,
  parts: {
    plan: FaultPlan;
    store: Stores;
    records: RecordControl;
    resetHooks?: readonly (() => Promise<void> | void)[];
  },
): void {
  const { plan, store, records } = parts;
  admin.post('/reset', async (c) => {
    await store.stubs.remove();
    plan.reset();
    await store.faults.disarm();
    await store.journal.clear();
    await store.limits.reset();
    await store.clock.reset();
    await records.clear().catch(refusal);
    for (const hook of parts.resetHooks ?? []) await hook();
    return c.json({ reset: true });
  });
}
