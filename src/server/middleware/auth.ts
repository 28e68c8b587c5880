/**
 * @module middleware/auth
 * API-key authentication and scope check, as the source describes: missing, unknown or expired
 * key -> 401; a key of the other environment -> 401 (production and staging keys differ); a valid
 * key without the operation's endpoint family -> 403. The key is read from `x-api-key` only.
 */
import { createMiddleware } from 'hono/factory';
import type { Clock } from '../clock.js';
import type { AppEnv } from '../env.js';
import { apiError, messages } from '../errors.js';
import type { KeyStore } from '../keys.js';

export const API_KEY_HEADER = 'x-api-key';

export function auth(options: { keys: KeyStore; clock: Clock }) {
  if (!options.keys || !options.clock) throw new Error('auth: keys and clock are required');
  const { keys, clock } = options;
  return createMiddleware<AppEnv>(async function authenticate(c, next) {
    const secret = c.req.header(API_KEY_HEADER);
    if (!secret) throw apiError(401, messages.missingKey);
    const key = keys.lookup(secret);
    if (!key) throw apiError(401, messages.invalidKey);
    if (key.expiresAt !== undefined && key.expiresAt <= clock.now()) throw apiError(401, messages.expiredKey);
    const api = c.get('api');
    const operation = c.get('operation');
    if (key.environment !== api.environment) throw apiError(401, messages.wrongEnvironment(api.environment));
    if (!key.scopes.has(operation.family)) throw apiError(403, messages.forbidden(operation.family));
    c.set('key', key);
    await next();
  });
}
