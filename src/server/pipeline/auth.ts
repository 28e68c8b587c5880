/**
 * @module pipeline/auth
 * API-key authentication and scope check, as the source describes: missing, unknown or expired
 * key -> 401; a key of the other environment -> 401 (production and staging keys differ); a valid
 * key without the operation's endpoint family -> 403. The key is read from `x-api-key` only.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context, Next } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Step } from './chain.js';
import type { Clock } from '../../state/clock/clock.js';
import type { AppEnv } from '../env.js';
import { apiError, messages } from '../errors.js';
import type { KeyRecord, KeyStore } from '../config/keys.js';

export const API_KEY_HEADER = 'x-api-key';

/**
 * The last key each connection presented and the record it named. A keep-alive client sends the
 * same key on every request; comparing it with the one before (in constant time, as every
 * comparison of a secret here) is much cheaper than hashing it again (bench/README.md). Kept
 * per socket (one entry each, no longer than the header it came in) and gone with the socket.
 */
const lastKeyOnConnection = new WeakMap<
  Socket,
  { presented: Buffer; key: KeyRecord | undefined }
>();

function lookupOnConnection(
  keys: KeyStore,
  socket: Socket | undefined,
  secret: string,
): KeyRecord | undefined {
  if (!socket) return keys.lookup(secret);
  const presented = Buffer.from(secret);
  const last = lastKeyOnConnection.get(socket);
  if (
    last &&
    last.presented.length === presented.length &&
    timingSafeEqual(last.presented, presented)
  )
    return last.key;
  const key = keys.lookup(secret);
  lastKeyOnConnection.set(socket, { presented, key });
  return key;
}

export function auth(options: { keys: KeyStore; clock: Clock }) {
  if (!options.keys || !options.clock) throw new Error('auth: keys and clock are required');
  const { keys, clock } = options;
  return function authenticate(c: Context<AppEnv>, next: Next) {
    const secret = c.req.header(API_KEY_HEADER);
    if (!secret) throw apiError(401, messages.missingKey);
    const key = lookupOnConnection(
      keys,
      (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket,
      secret,
    );
    if (!key) throw apiError(401, messages.invalidKey);
    if (key.expiresAt !== undefined && key.expiresAt <= clock.now())
      throw apiError(401, messages.expiredKey);
    const api = c.get('api');
    const operation = c.get('operation');
    if (key.environment !== api.environment)
      throw apiError(401, messages.wrongEnvironment(api.environment));
    if (!key.scopes.has(operation.family))
      throw apiError(403, messages.forbidden(operation.family));
    c.set('key', key);
    return next();
  } satisfies Step;
}
