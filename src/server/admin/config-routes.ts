/**
 * @module admin/config-routes
 * `GET /__mock/config`: what the mock runs with (release, seed, scale, environments, the keys
 * without their secrets, the clock offset, the state store, the fault plan and the armed faults).
 */
import type { Hono } from 'hono';
import type { Stores } from '../../state/stores.js';
import type { FaultPlan } from '../faults/fault-plan.js';
import type { AdminParts } from './admin-parts.js';

export function configRoutes(
  admin: Hono,
  parts: { state: AdminParts; plan: FaultPlan; store: Stores },
): void {
  const { state, plan, store } = parts;
  admin.get('/config', async (c) => {
    const { options: o, contract, keys } = state;
    return c.json({
      release: contract.release,
      seed: o.seed,
      scale: o.scale,
      environments: state.apis.map((a) => ({ environment: a.environment, basePath: a.basePath })),
      tierOverride: o.tierOverride,
      keys: keys.records.map((k) => ({
        name: k.name,
        environment: k.environment,
        tier: k.tier,
        scopes: [...k.scopes],
        expiresAt: k.expiresAt === undefined ? null : new Date(k.expiresAt).toISOString(),
        purpose: k.purpose,
      })),
      clockOffsetSeconds: (await store.clock.offsetMs()) / 1000,
      state: {
        store: store.description,
        instance: o.instanceId,
        local: store.local,
        repaired: store.repaired,
      },
      faults: {
        seed: plan.options.seed,
        random: plan.options.random ?? null,
        latency: plan.options.latency ?? null,
        armed: await store.faults.armed(),
      },
    });
  });
}
