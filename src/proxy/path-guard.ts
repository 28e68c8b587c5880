/**
 * @module proxy/path-guard
 * Paths the proxy refuses to forward with the key: a segment that decodes to a separator
 * (`a%2f..%2fetc`, `a%5cb`), a dot segment in any spelling (`..`, `%2e%2e`, `.%2E`, `..;x`), an escape
 * still encoded after decoding (`%252f`: a second decoder would see a separator), a control
 * character, or a malformed escape. Any of them could make the live side (or a server in front
 * of it) resolve another resource than the one the document describes. The check reads the
 * request line as the client sent it: the URL parser behind `c.req.url` already resolved plain
 * dot segments, which would hide `products/../../__mock` as `/__mock`.
 */
import { createMiddleware } from 'hono/factory';
import type { IncomingMessage } from 'node:http';
import { splitUrl } from '../net/request-url.js';
import { errorAnswer } from './errors.js';

const DOT_SEGMENT = /^\.{1,2}$/;
const SEPARATOR_OR_CONTROL = /[/\\\x00-\x1f\x7f]/;
/** `%2f`, `%5c`, `%2e` (any case) left after one decoding. */
const STILL_ENCODED = /%(?:2f|5c|2e)/i;

/** Why a raw path (still percent-encoded, query excluded) must not be forwarded; undefined when it is fine. */
export function unsafePathProblem(rawPath: string): string | undefined {
  if (rawPath.includes('\\')) return 'a backslash in the path';
  for (const segment of rawPath.split('/').slice(1)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return `malformed percent-escape in segment "${segment}"`;
    }
    // `..;x` too: servers that take `;` as a path parameter (Tomcat, Spring) resolve it as `..`.
    if (DOT_SEGMENT.test(decoded.split(';')[0])) return `dot segment "${segment}"`;
    if (SEPARATOR_OR_CONTROL.test(decoded))
      return `segment "${segment}" encodes a separator or control character`;
    if (STILL_ENCODED.test(decoded))
      return `segment "${segment}" is encoded twice (a second decoding would give a separator or dot)`;
  }
  return undefined;
}

/** The request target as sent (`/a/../b?x`), from Node's request when there is one. */
function requestTarget(c: { env: unknown; req: { url: string } }): string {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.url ?? splitUrl(c.req.url).rawPath;
}

export function refuseUnsafePaths() {
  return createMiddleware(async function refuseUnsafePath(c, next) {
    const target = requestTarget(c);
    const query = target.indexOf('?');
    const problem = unsafePathProblem(query === -1 ? target : target.slice(0, query));
    if (problem)
      return errorAnswer(
        c,
        400,
        `path refused, not forwarded: ${problem}; request the resource by its plain path`,
      );
    return next();
  });
}
