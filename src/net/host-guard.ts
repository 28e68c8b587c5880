/**
 * @module net/host-guard
 * Against DNS rebinding: a page on `evil.example` whose name is re-pointed at 127.0.0.1 talks to
 * a local server from the browser as a same-origin page (no `Origin` check applies). Its requests
 * still carry `Host: evil.example`, so a guarded server answers only requests whose Host names
 * loopback (`localhost`, `127.x.x.x`, `[::1]`), the address it listens on, or a name its user
 * configured; anything else gets a 403 before any other step. The port in Host is not checked
 * (the name is what an attacker controls). One guard for both servers that need it: the proxy
 * (it holds the user's key; `--proxy-host`) and the mock's QA controls under `/__mock/`
 * (`--admin-host`), each wording its own refusal.
 */
import type { Context, MiddlewareHandler } from 'hono';

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

/** True for a loopback name or address (`localhost`, `127.0.0.1`, `::1`, `[::1]`). */
export function isLoopbackName(name: string): boolean {
  const normal = normalizeHostName(name);
  return LOOPBACK_NAMES.includes(normal) || LOOPBACK_V4.test(normal);
}

/** Checks a configured name (`--proxy-host`, `--admin-host`): a bare host name or IP address, no scheme, port or path. */
export function parseAllowedHost(raw: string): string {
  const name = hostNameOf(raw);
  if (name === undefined || new URL(`http://${raw}`).port !== '')
    throw new Error(
      `"${raw}" is not a host name (give the bare name, e.g. dev.example.test, without scheme, port or path)`,
    );
  return name;
}

/**
 * A received Host as a message may show it: at most 100 characters, quoted, every character
 * outside printable ASCII (controls, C1, bidi overrides) as a `\u` escape, so it cannot restyle
 * a terminal or a page.
 */
export function shownHost(header: string | undefined): string {
  if (header === undefined) return 'no Host header';
  const quoted = JSON.stringify(header.slice(0, 100)).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `Host ${quoted}`;
}

/**
 * The guard: `next()` for a Host naming loopback or one of `allowedHosts`; `refuse` answers any
 * other (it is given the Host as shown, escaped). The configured names are never listed in the
 * refusal: a rebinding page can read it.
 */
export function hostGuard<C extends Context>(options: {
  allowedHosts: readonly string[];
  refuse: (c: C, shown: string) => Response;
  /**
   * The Host to judge when the request has no Host header: none (refused, the default), or the
   * request URL's (an in-process request, `app.request()`, has no header; every browser sends one).
   */
  withoutHeader?: 'refuse' | 'url';
}): MiddlewareHandler {
  const allowed = new Set([...LOOPBACK_NAMES, ...options.allowedHosts.map(normalizeHostName)]);
  return async function answerOnlyKnownHosts(c, next) {
    const header =
      c.req.header('host') ??
      (options.withoutHeader === 'url' ? new URL(c.req.url).host : undefined);
    const name = header === undefined ? undefined : hostNameOf(header);
    if (name !== undefined && (allowed.has(name) || LOOPBACK_V4.test(name))) return next();
    return options.refuse(c as C, shownHost(header));
  };
}
