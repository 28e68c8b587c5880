/**
 * @module pipeline/href-origin
 * Absolute hrefs that name the origin the request came to. The dataset is built once with the
 * address the mock listens on (`http://127.0.0.1:4010`); a client that asked
 * `http://localhost:4010` gets `http://localhost:4010/web-data/v1/...` in its hrefs, so following
 * one reaches the server it used (the suite's `href-origin` rule). Only a mock on a socket does
 * this, and only when no public origin was given (`--public-url`, `startMock({ origin })`), which
 * always wins (DECISIONS 114).
 *
 * The Host header is the client's to write: only a well-formed host and port is taken (a name,
 * IPv4 or a bracketed IPv6 address; at most 255 characters); anything else keeps the built origin.
 * The bodies the mock caches keep the built origin, so one client's Host never reaches another.
 */

const HOST =
  /^(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
const MAX_HOST_LENGTH = 255;
const UTF8_DECODER = new TextDecoder();
const UTF8 = new TextEncoder();

/** An answer's body: JSON text, or its UTF-8 bytes. */
type Body = string | Uint8Array<ArrayBuffer>;

/** Rewrites one answer's body for the Host it was asked on; the body as it is when nothing changes. */
export type HrefOrigin = (host: string | undefined, body: Body) => Body;

/** Keeps every body as it is: an in-process app, or a mock with a public origin. */
export const FIXED_ORIGIN: HrefOrigin = (_host, body) => body;

/**
 * The rewriter for a mock built with `builtOrigin` (`http://127.0.0.1:4010`) serving `basePaths`.
 * An href is the base URL followed by `/` or the end of the string, always inside JSON quotes.
 */
export function hrefOriginFollowingHost(builtOrigin: string, basePaths: string[]): HrefOrigin {
  const built = new URL(builtOrigin);
  const builtHost = built.host;
  return (host, body) => {
    if (host === undefined || host === builtHost || host.length > MAX_HOST_LENGTH) return body;
    if (!HOST.test(host)) return body;
    const text = typeof body === 'string' ? body : UTF8_DECODER.decode(body);
    const origin = `${built.protocol}//${host}`;
    let out = text;
    for (const basePath of basePaths) {
      out = out
        .replaceAll(`"${built.origin}${basePath}/`, `"${origin}${basePath}/`)
        .replaceAll(`"${built.origin}${basePath}"`, `"${origin}${basePath}"`);
    }
    if (out === text) return body;
    return typeof body === 'string' ? out : UTF8.encode(out);
  };
}
