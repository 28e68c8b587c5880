/**
 * @module proxy/headers
 * What crosses the proxy in each direction. Upstream: the browser's headers minus hop-by-hop ones,
 * cookies, credentials and any key it sent, plus our key. Downstream: the live headers minus
 * hop-by-hop ones, cookies, the live service's own CORS answer, and anything carrying the key.
 */

/** RFC 9110 section 7.6.1, plus the non-standard ones proxies still see. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/** Never sent upstream: the browser's identity and credentials are not the live service's business. */
const NOT_UPSTREAM = ['host', 'cookie', 'authorization', 'x-api-key', 'origin', 'referer', 'content-length', 'accept-encoding', 'expect'];

/** Never sent downstream: cookies, the live CORS answer (ours replaces it), and what Node recomputes. */
const NOT_DOWNSTREAM = ['set-cookie', 'set-cookie2', 'x-api-key', 'content-length', 'content-encoding'];
const CORS_PREFIX = 'access-control-';

export const API_KEY_HEADER = 'x-api-key';

/** Header names a `Connection` header lists are hop-by-hop for this message too. */
function connectionListed(headers: Headers): Set<string> {
  return new Set((headers.get('connection') ?? '').split(',').map((n) => n.trim().toLowerCase()).filter(Boolean));
}

function copyWithout(source: Headers, drop: (name: string, value: string) => boolean): Headers {
  const listed = connectionListed(source);
  const result = new Headers();
  source.forEach((value, name) => {
    if (HOP_BY_HOP.includes(name) || listed.has(name) || drop(name, value)) return;
    result.append(name, value);
  });
  return result;
}

/**
 * Headers for the live request. `accept-encoding: identity` keeps bodies uncompressed so a
 * download's `content-length` stays true end to end and JSON can be validated as received.
 */
export function upstreamRequestHeaders(incoming: Headers, apiKey: string): Headers {
  const headers = copyWithout(incoming, (name) => NOT_UPSTREAM.includes(name));
  headers.set(API_KEY_HEADER, apiKey);
  headers.set('accept-encoding', 'identity');
  return headers;
}

/**
 * Headers for the browser. `content-length` is kept only for bodies passed through unchanged
 * and uncompressed (downloads); buffered bodies get theirs from the server.
 */
export function downstreamResponseHeaders(upstream: Headers, apiKey: string, options: { keepLength: boolean }): Headers {
  const encoded = (upstream.get('content-encoding') ?? 'identity') !== 'identity';
  const headers = copyWithout(upstream, (name, value) => NOT_DOWNSTREAM.includes(name) || name.startsWith(CORS_PREFIX) || value.includes(apiKey));
  const length = upstream.get('content-length');
  if (options.keepLength && !encoded && length !== null) headers.set('content-length', length);
  return headers;
}
