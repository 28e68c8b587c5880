/**
 * @module admin/admin-guard
 * What stands before every `/__mock/*` control, in order: the Host allow-list (the one guard of
 * src/net/host-guard.ts, which the proxy uses too: loopback names, the mock's own address and
 * `--admin-host` names), then the admin token, compared in constant time, with failed attempts
 * throttled per client. The throttle's policy: a client (its remote address) that sends
 * MAX_FAILURES wrong or missing tokens within WINDOW_MS is answered 429 with `Retry-After` until
 * that window ends, whatever token it sends (a right guess must not be told apart); at most
 * MAX_CLIENTS clients are tracked, the oldest dropped first, so the state is bounded.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { hostGuard } from '../../net/host-guard.js';
import { apiError } from '../errors.js';
import { jsonResponse } from '../response.js';

export const ADMIN_TOKEN_HEADER = 'x-mock-admin-token';
/** Wrong or missing tokens a client may send in one window before it is made to wait. */
export const MAX_FAILURES = 20;
export const WINDOW_MS = 60_000;
/** Clients whose failures are counted at once (each a few dozen bytes). */
export const MAX_CLIENTS = 1024;

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The connection's remote address (node-server's `incoming`), or one bucket for in-process requests. */
function clientOf(c: Context): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'in-process';
}

/** Failed attempts per client, in fixed windows (see the module's policy). */
export class FailedAttempts {
  readonly #clients = new Map<string, { start: number; failures: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds the client must wait, or 0 when it may try. */
  waitSeconds(client: string): number {
    const seen = this.#clients.get(client);
    if (!seen) return 0;
    const left = seen.start + WINDOW_MS - this.now();
    if (left <= 0) {
      this.#clients.delete(client);
      return 0;
    }
    return seen.failures >= MAX_FAILURES ? Math.ceil(left / 1000) : 0;
  }

  fail(client: string): void {
    const seen = this.#clients.get(client);
    if (seen) {
      seen.failures += 1;
      return;
    }
    if (this.#clients.size >= MAX_CLIENTS) {
      const oldest = this.#clients.keys().next().value;
      if (oldest !== undefined) this.#clients.delete(oldest);
    }
    this.#clients.set(client, { start: this.now(), failures: 1 });
  }
}

/** The Host allow-list, then the token check with its throttle. */
export function adminGuard(options: {
  token: string;
  /** Names the controls answer to besides loopback (`--admin-host`, the mock's own address). */
  allowedHosts: readonly string[];
  attempts?: FailedAttempts;
}): MiddlewareHandler[] {
  const expected = digest(options.token);
  const attempts = options.attempts ?? new FailedAttempts();
  const hosts = hostGuard({
    allowedHosts: options.allowedHosts,
    withoutHeader: 'url',
    refuse: (_c, shown) =>
      jsonResponse(403, {
        error: `${shown} is not a name the mock's controls answer to (only loopback names, the mock's own address and those given with --admin-host; add a name with --admin-host); refused against DNS rebinding`,
      }),
  });
  const token: MiddlewareHandler = async function checkAdminToken(c, next) {
    const client = clientOf(c);
    const wait = attempts.waitSeconds(client);
    if (wait > 0)
      throw apiError(
        429,
        `too many wrong admin tokens from this client: at most ${MAX_FAILURES} a minute; try again in ${wait} s`,
        {},
        { 'retry-after': String(wait) },
      );
    const presented = c.req.header(ADMIN_TOKEN_HEADER);
    if (!presented || !timingSafeEqual(digest(presented), expected)) {
      attempts.fail(client);
      throw apiError(401, `admin token missing or wrong (send it in ${ADMIN_TOKEN_HEADER})`);
    }
    await next();
  };
  return [hosts, token];
}
