/**
 * @module app
 * `createApp(options)`: the mock as a Hono app that never listens, in two steps: build the state
 * from the options (mock-state.ts), then mount the routes on it (mount.ts; the API's operations in
 * operation-routes.ts). Middleware factories are named for the step they make, as nouns:
 * `requestLog`, `delivery`, `responseCheck`, `auth`, `rateLimit`, `faultInjection`, `bodyReader`,
 * `inputValidation`.
 */
import { Hono } from 'hono';
import type { AppEnv } from './env.js';
import { buildState, type MockState } from './mock-state.js';
import { mountRoutes } from './mount.js';
import type { AppOptions } from './options.js';
import { RememberingRouter } from './pipeline/route-memo.js';
import { scopeRoutingOf } from './scopes/scopes.js';

export type { MockState } from './mock-state.js';

export type MockApp = Hono<AppEnv> & { state: MockState };

export async function createApp(partial: Partial<AppOptions> = {}): Promise<MockApp> {
  const parts = await buildState(partial);
  const app = new Hono<AppEnv>({ router: new RememberingRouter() }) as MockApp;
  app.state = parts.state;
  mountRoutes(app, parts, scopeRoutingOf(parts));
  return app;
}
