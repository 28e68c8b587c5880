/**
 * @module proxy/host-guard
 * Against DNS rebinding: a page on `evil.example` whose name is re-pointed at 127.0.0.1 talks to
 * the proxy from the browser as a same-origin page (no `Origin` check applies) and would read
 * live data fetched with the user's key. Its requests still carry `Host: evil.example`, so the
 * proxy answers only requests whose Host names loopback (`localhost`, `127.x.x.x`, `[::1]`), the
 * address it listens on, or a name configured with `--proxy-host`; anything else gets a 403
 * JSON error before any other step, forwarding included. The port in Host is not checked (the
 * name is what an attacker controls).
 */
import { createMiddleware } from 'hono/factory';
import { errorAnswer } from './errors.js';

const LOOPBACK_NAMES = ['localhost', '::1'];
const LOOPBACK_V4 = /^127(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** The host name of a Host header value (`Name:4020` -> `name`, `[::1]:4020` -> `::1`); undefined when it is not one. */
export function hostNameOf(header: string): string | undefined {
  // Userinfo, a path or a query smuggled into Host is not a host.
  if (/[@/?#\\\s]/.test(header)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${header}`);
  } catch {
    return undefined;
  }
  return normalizeHostName(url.hostname);
}

/** Lower case, no brackets, no trailing dot (`LocalHost.` is `localhost`). */
export function normalizeHostName(name: string): string {
  return name
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** Checks a configured name (`--proxy-host`): a bare host name or IP address, no scheme, port or path. */
export function parseAllowedHost(raw: string): string {
  const name = hostNameOf(raw);
  if (name === undefined || new URL(`http://${raw}`).port !== '')
    throw new Error(
      `"${raw}" is not a host name (give the bare name, e.g. dev.example.test, without scheme, port or path)`,
    );
  return name;
}

export function hostGuard(options: { allowedHosts: readonly string[] }) {
  const allowed = new Set([...LOOPBACK_NAMES, ...options.allowedHosts.map(normalizeHostName)]);
  return createMiddleware(async function answerOnlyKnownHosts(c, next) {
    const header = c.req.header('host');
    const name = header === undefined ? undefined : hostNameOf(header);
    if (name !== undefined && (allowed.has(name) || LOOPBACK_V4.test(name))) return next();
    const shown =
      header === undefined ? 'no Host header' : `Host ${JSON.stringify(header.slice(0, 100))}`;
    // The configured names are not listed: a rebinding page can read this answer.
    return errorAnswer(
      c,
      403,
      `${shown} is not a name this proxy answers to (only loopback names, its own address and those given with --proxy-host; add a name with --proxy-host); refused to protect the key against DNS rebinding`,
    );
  });
}
