/**
 * @module state/redis-connection
 * Opening the Redis connection of the shared store: the URL checked and never printed with its
 * password, one bounded attempt at start (a failure is a usage error naming the URL), then
 * reconnection with back-off while serving; commands fail at once instead of queueing while
 * Redis is away, and each is bounded by a short timeout.
 */
import { UsageError } from '../usage.js';
import { Redis, type RedisOptions } from 'ioredis';

/** The URL is the user's input and may carry a password: never print it. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

/** Redis at the given URL could not be reached (or answered wrongly) when the mock started. */
export class StateUnreachableError extends UsageError {
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
  let started = false;
  const settings: RedisOptions = {
    lazyConnect: true,
    // Fail at once instead of queueing while disconnected: the caller answers from local state.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: Math.max(1000, options.commandTimeoutMs * 4),
    // Commands issued in the same tick go out in one write (fewer syscalls under load).
    enableAutoPipelining: true,
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
  started = true;
  return redis;
}

/** Checks that Redis at `url` answers (the cluster primary, before it starts workers). */
export async function probeRedis(url: string, commandTimeoutMs: number): Promise<void> {
  (await openRedis(url, { commandTimeoutMs, reconnectMaxMs: 0 })).disconnect();
}
