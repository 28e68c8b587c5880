/**
 * @module scopes/scopes
 * A mock's scopes, made when it has QA controls at all (an admin token): the registry in this
 * process, or in Redis with the state (src/state/scopes/), and the `Scopes` that builds their
 * apps. Put on the state (`state.scopes`) so closing the mock frees them.
 */
import type { MockParts } from '../mock-state.js';
import type { RedisStores } from '../../state/redis.js';
import type { Stores } from '../../state/stores.js';
import { RedisScopeRegistry } from './redis-registry.js';
import { MemoryScopeRegistry } from './registry.js';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { scopeRouting, Scopes } from './routing.js';

/** The Redis stores (the module loads only with `--state`: no `instanceof` here). */
const isShared = (stores: Stores): stores is RedisStores => 'sharing' in stores;

/** The root's scope routing step, or undefined when the mock has no QA controls. */
export function scopeRoutingOf(parts: MockParts): MiddlewareHandler<AppEnv> | undefined {
  const { options } = parts.state;
  if (options.adminToken === undefined) return undefined;
  const now = () => options.clock.now();
  const { stores } = parts.state;
  const scopes = isShared(stores)
    ? new Scopes(
        parts,
        new RedisScopeRegistry(stores.link, options.scopeTtlSeconds, options.maxScopes, now),
        (own, entry) =>
          stores.sharing(`${stores.link.options.prefix}scope:${entry.id}:`, {
            local: own.local,
            tiers: parts.tiers,
            clock: own.clock,
          }),
      )
    : new Scopes(parts, new MemoryScopeRegistry(options.scopeTtlSeconds, options.maxScopes, now));
  parts.state.scopes = scopes;
  return scopeRouting(scopes);
}
