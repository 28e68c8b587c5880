/**
 * @module scopes/scopes
 * A mock's scopes, made when it has QA controls at all (an admin token): the registry in this
 * process, or in Redis with the state (src/state/scopes/), and the `Scopes` that builds their
 * apps. Put on the state (`state.scopes`) so closing the mock frees them.
 */
import type { MockParts } from '../mock-state.js';
import { MemoryScopeRegistry } from './registry.js';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { scopeRouting, Scopes } from './routing.js';

/** The root's scope routing step, or undefined when the mock has no QA controls. */
export function scopeRoutingOf(parts: MockParts): MiddlewareHandler<AppEnv> | undefined {
  const { options } = parts.state;
  if (options.adminToken === undefined) return undefined;
  const registry = new MemoryScopeRegistry(options.scopeTtlSeconds, options.maxScopes, () =>
    options.clock.now(),
  );
  const scopes = new Scopes(parts, registry);
  parts.state.scopes = scopes;
  return scopeRouting(scopes);
}
