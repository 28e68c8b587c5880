/**
 * @module state/shared/connection
 * Opening the Redis connection of the shared store: the URL checked and never printed with its
 * password, one bounded attempt at start (a failure is a StateUnreachableError naming the URL,
 * which the command maps to its usage error, exit 2), then
 * reconnection with back-off while serving; commands fail at once instead of queueing while
 * Redis is away, and each is bounded by a short timeout.
 */
import { Redis, type RedisOptions } from 'ioredis';

/** Query parameters that carry a credential (ioredis reads `?password=` as the password). */
const CREDENTIAL_PARAM = /pass|secret|token|key|auth|cred/i;

/**
 * The URL is the user's input and may carry credentials: never print them. The password (and
 * any credential-like query parameter: `?password=`, `?token=`) becomes `***`.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const name of [...parsed.searchParams.keys()])
      if (CREDENTIAL_PARAM.test(name)) parsed.searchParams.set(name, '***');
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/**
 * The database a Redis URL names: `/N` (or `?db=N`), 0 when it names none. Anything else is a
 * StateUnreachableError before any connection (ioredis would send `SELECT abc` and fail after
 * "ready").
 */
export function redisDatabaseOf(url: string): number {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StateUnreachableError(`--state ${redactUrl(url)}: not a Redis URL`);
  }
  const raw = parsed.pathname.replace(/^\//, '') || (parsed.searchParams.get('db') ?? '0');
  if (!/^\d{1,5}$/.test(raw))
    throw new StateUnreachableError(
      `--state ${redactUrl(url)}: the database must be a number, as in redis://host:6379/0 (got "${raw.slice(0, 40)}")`,
    );
  return Number(raw);
}

/**
 * Redis at the given URL is not one the mock can use (not a Redis URL, a database that is not a
 * number) or could not be reached (or answered wrongly) when the mock started: the user's input,
 * which the command maps to its usage error (exit 2).
 */
export class StateUnreachableError extends Error {
  override name = 'StateUnreachableError';
}

/**
 * A connection that answered PING, or a StateUnreachableError naming the URL (password redacted).
 * At start one attempt, bounded; once open, reconnection backs off up to `reconnectMaxMs`.
 */
export async function openRedis(
  url: string,
  options: { commandTimeoutMs: number; reconnectMaxMs: number },
): Promise<Redis> {
  const db = redisDatabaseOf(url);
  let started = false;
  const settings: RedisOptions = {
    lazyConnect: true,
    // Selected below, where a database the server does not have is an error we can name.
    db: 0,
    // Fail at once instead of queueing while disconnected: the caller answers from local state.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: Math.max(1000, options.commandTimeoutMs * 4),
    // No auto-pipelining: the store already sends one call per turn of the event loop
    // (shared/turn.ts), and ioredis would build a pipeline object around each.
    enableAutoPipelining: false,
    retryStrategy: (times) =>
      started ? Math.min(options.reconnectMaxMs, 50 * 2 ** Math.min(times, 16)) : null,
  };
  let redis: Redis;
  try {
    redis = new Redis(url, settings);
  } catch (error) {
    throw new StateUnreachableError(
      `--state ${redactUrl(url)}: not a Redis URL (${(error as Error).message})`,
    );
  }
  // The socket's own reason (ECONNREFUSED, ENOTFOUND); connect() itself only says the connection closed.
  let cause: Error | undefined;
  redis.on('error', (error: Error) => (cause ??= error));
  try {
    await redis.connect();
    const pong = await redis.ping();
    if (pong !== 'PONG') throw new Error(`PING answered ${String(pong)}`);
  } catch (error) {
    redis.disconnect();
    const reason = (cause ?? (error as Error)).message.split(url).join(redactUrl(url));
    throw new StateUnreachableError(`--state ${redactUrl(url)}: Redis unreachable (${reason})`);
  }
  try {
    if (db !== 0) await redis.select(db);
  } catch (error) {
    redis.disconnect();
    throw new StateUnreachableError(
      `--state ${redactUrl(url)}: database ${db} cannot be selected on this server (${(error as Error).message})`,
    );
  }
  // Every reconnection selects it again.
  redis.options.db = db;
  started = true;
  return redis;
}

/** Checks that Redis at `url` answers (the cluster primary, before it starts workers). */
export async function probeRedis(url: string, commandTimeoutMs: number): Promise<void> {
  (await openRedis(url, { commandTimeoutMs, reconnectMaxMs: 0 })).disconnect();
}
