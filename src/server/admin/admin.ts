/**
 * @module admin/admin
 * Control endpoints under `/__mock/` (off unless an admin token is configured; never part of the
 * API document), mounted behind the guard (admin-guard.ts: the Host allow-list, then the token).
 * Each resource's routes live in its feature's room: faults/routes.ts, stubs/routes.ts,
 * journal/routes.ts, records/routes.ts, console/routes.ts, and here the mock's own: config,
 * rate limits, clock and reset. A body is read no further than MAX_ADMIN_BODY_BYTES, within the
 * body time bound (control-body.ts). All of it reads and changes the state store, so with a shared
 * store any instance's controls act on the whole fleet.
 */
import { Hono, type Context, type Env } from 'hono';
import type { Tier } from '../../state/limits/rate-limiter.js';
import type { Stores } from '../../state/stores.js';
import { CspReports } from '../console/csp-reports.js';
import { mountConsolePage } from '../console/page.js';
import { consoleRoutes } from '../console/routes.js';
import type { FaultPlan } from '../faults/fault-plan.js';
import { faultRoutes } from '../faults/routes.js';
import { journalRoutes } from '../journal/routes.js';
import { STATE_HEADER } from '../pipeline/rate-limit.js';
import { recordRoutes } from '../records/routes.js';
import type { RecordControl } from '../records/control.js';
import { jsonResponse } from '../response.js';
import type { SampleAnswer } from '../stubs/sample-answer.js';
import { stubRoutes } from '../stubs/routes.js';
import { adminGuard, type FailedAttempts } from './admin-guard.js';
import { keyNameOf, type AdminParts } from './admin-parts.js';
import { ADMIN_PREFIX } from './admin-prefix.js';
import { clockRoutes } from './clock-routes.js';
import { configRoutes } from './config-routes.js';
import { jsonBody } from './control-body.js';
import { limitsRoutes } from './limits-routes.js';
import { resetRoutes } from './reset-routes.js';

export { keyNameOf, type AdminParts } from './admin-parts.js';
export { ADMIN_PREFIX } from './admin-prefix.js';
export { ADMIN_TOKEN_HEADER } from './admin-guard.js';
export { MAX_ADMIN_BODY_BYTES } from './control-body.js';

export interface AdminRouteOptions {
  token: string;
  state: AdminParts;
  plan: FaultPlan;
  store: Stores;
  records: RecordControl;
  /** The dataset's answer to a request a match describes (a patch stub is judged on it). */
  sampleAnswer?: SampleAnswer;
  /**
   * Further state a reset clears (record edits, when the mock has them): each is awaited by
   * `POST /__mock/reset` after the stubs, faults, journal, limits and clock.
   */
  resetHooks?: readonly (() => Promise<void> | void)[];
  /** The rate-limit tiers, for the console's per-key view (`GET /__mock/limits`). */
  tiers?: ReadonlyMap<string, Tier>;
  /** Wrong tokens counted per client, shared with the scopes' controls (mock-state.ts). */
  attempts?: FailedAttempts;
}

export function adminRoutes(options: AdminRouteOptions): Hono {
  const { state, store, records } = options;
  const bodyOf = (c: Context<Env, string>) => jsonBody(c, state.options.bodyTimeoutMs);
  const admin = new Hono();
  const [hostCheck, tokenCheck] = adminGuard({
    token: options.token,
    allowedHosts: [...state.options.adminHosts, new URL(state.options.origin).hostname],
    attempts: options.attempts,
  });
  // The Host check holds for every path, the console's page included (DNS rebinding); the page
  // and its files ask for the token themselves (src/server/console/), so they come before its check.
  admin.use('*', hostCheck);
  const reports = new CspReports();
  mountConsolePage(admin, ADMIN_PREFIX, reports, state.options.bodyTimeoutMs);
  admin.use('*', tokenCheck);
  admin.use('*', async (c, next) => {
    await next();
    // What was read or changed here was this instance's own state: the shared store is away.
    if (store.local) c.res.headers.set(STATE_HEADER, 'local');
  });

  configRoutes(admin, options);
  limitsRoutes(admin, store, bodyOf);
  clockRoutes(admin, store, bodyOf);
  faultRoutes(admin, options, bodyOf);
  journalRoutes(admin, options, bodyOf);
  stubRoutes(admin, options, bodyOf);
  resetRoutes(admin, options);
  recordRoutes(admin, records, bodyOf);
  consoleRoutes(
    admin,
    {
      ...state,
      store,
      records,
      reports,
      tiers: options.tiers ?? new Map(),
      sampleAnswer: options.sampleAnswer,
      keyNameOf: (v) => keyNameOf(state, v),
    },
    bodyOf,
  );
  admin.notFound((c) =>
    jsonResponse(404, { error: `No such control endpoint: ${c.req.method} ${c.req.path}` }),
  );
  return admin;
}
