/**
 * @module proxy/cors
 * CORS for the configured browser origins only. Preflights are answered here, never forwarded.
 * Requests without an `Origin` (curl, servers, the address bar) pass; a disallowed origin gets a
 * 403 `{error}`. So does a request a browser marks as coming from another site
 * (`Sec-Fetch-Site: cross-site` or `same-site`) without an `Origin`: an `<img>`, a link or a form
 * on any page would otherwise make the proxy spend the user's quota with the key, even though
 * the page cannot read the answer. (`same-site` is refused too: on a developer's machine every
 * other `localhost` port is the same site, and those are exactly the pages not configured.)
 * No `Access-Control-Allow-Credentials`: the proxy holds the key, so a page needs no cookies or
 * credentials, and cookies are stripped both ways anyway.
 */
import { createMiddleware } from 'hono/factory';
import { errorAnswer } from './errors.js';

export const ALLOWED_METHODS = ['GET', 'HEAD', 'POST'];
export const ALLOWED_HEADERS = ['content-type', 'accept', 'prefer'];
/** `Sec-Fetch-Site` values a browser sends for a request another site's page started. */
const FROM_ANOTHER_SITE = new Set(['cross-site', 'same-site']);
/** Browsers may cache a preflight answer this long. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

export interface CorsOptions {
  /** Exact origins, e.g. `http://localhost:5173` (scheme, host and port; no path). */
  allowedOrigins: readonly string[];
  /** Response headers a page may read, besides the CORS-safelisted ones. */
  exposeHeaders: readonly string[];
}

/** `http://LOCALHOST:5173/` -> `http://localhost:5173`; throws on something that is not an origin. */
export function normalizeOrigin(raw: string): string {
  const url = new URL(raw);
  if (
    url.origin === 'null' ||
    (url.pathname !== '/' && url.pathname !== '') ||
    url.search ||
    url.hash
  ) {
    throw new Error(`"${raw}" is not an origin (scheme://host[:port])`);
  }
  return url.origin;
}

export function cors(options: CorsOptions) {
  const allowed = new Set(options.allowedOrigins.map(normalizeOrigin));
  const expose = options.exposeHeaders.join(', ');
  return createMiddleware(async function corsForConfiguredOrigins(c, next) {
    const origin = c.req.header('origin');
    const preflight =
      c.req.method === 'OPTIONS' && c.req.header('access-control-request-method') !== undefined;
    if (origin === undefined && FROM_ANOTHER_SITE.has(c.req.header('sec-fetch-site') ?? '')) {
      return errorAnswer(
        c,
        403,
        `a request from another site (Sec-Fetch-Site: ${c.req.header('sec-fetch-site')}) without an Origin is not forwarded: it would spend the key's quota for a page that is not configured; call the proxy with fetch() from an allowed origin (add it with --proxy-origin)`,
      );
    }
    if (origin === undefined) {
      // Not a browser; an OPTIONS without Origin is answered here too (nothing upstream needs it).
      if (c.req.method === 'OPTIONS')
        return c.body(null, 204, { allow: ALLOWED_METHODS.join(', ') });
      return next();
    }
    if (!allowed.has(origin)) {
      return errorAnswer(
        c,
        403,
        `origin ${origin} is not allowed by this proxy (allowed: ${[...allowed].join(', ') || 'none'}; add it with --proxy-origin)`,
        { vary: 'Origin' },
      );
    }
    if (preflight || c.req.method === 'OPTIONS') {
      return c.body(null, 204, {
        'access-control-allow-origin': origin,
        'access-control-allow-methods': ALLOWED_METHODS.join(', '),
        'access-control-allow-headers': ALLOWED_HEADERS.join(', '),
        'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      });
    }
    await next();
    c.res.headers.set('access-control-allow-origin', origin);
    c.res.headers.set('access-control-expose-headers', expose);
    c.res.headers.append('vary', 'Origin');
  });
}
