/**
 * @module proxy/headers
 * What crosses the proxy in each direction. Upstream: the browser's headers minus hop-by-hop ones,
 * cookies, credentials, any key it sent, the client's address as other proxies report it and the
 * mock's admin token, plus our key. Downstream: the live headers minus hop-by-hop ones, cookies,
 * the live service's own CORS answer, and any header carrying the key in any encoding.
 */
import type { KeyScrubber } from './key-scrub.js';

/** RFC 9110 section 7.6.1, plus the non-standard ones proxies still see. */
const HOP_BY_HOP = [
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
];

/**
 * Never sent upstream: the browser's identity and credentials are not the live service's business.
 * Client-address headers (`x-forwarded-*`, `forwarded`, `x-real-ip`, `via`, ...) would let a page
 * claim any address to the live service under the user's key; the mock's admin token
 * (`x-mock-admin-token`) is a secret of the local double, never of the vendor.
 */
const NOT_UPSTREAM = [
  'host',
  'cookie',
  'authorization',
  'x-api-key',
  'origin',
  'referer',
  'content-length',
  'accept-encoding',
  'expect',
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'true-client-ip',
  'x-cluster-client-ip',
  'cf-connecting-ip',
  'x-mock-admin-token',
];
const NOT_UPSTREAM_PREFIX = 'x-forwarded-';

/** Never sent downstream: cookies, the live CORS answer (ours replaces it), and what Node recomputes. */
const NOT_DOWNSTREAM = [
  'set-cookie',
  'set-cookie2',
  'x-api-key',
  'content-length',
  'content-encoding',
];
const CORS_PREFIX = 'access-control-';

export const API_KEY_HEADER = 'x-api-key';

/** Header names a `Connection` header lists are hop-by-hop for this message too. */
function connectionListed(headers: Headers): Set<string> {
  return new Set(
    (headers.get('connection') ?? '')
      .split(',')
      .map((n) => n.trim().toLowerCase())
      .filter(Boolean),
  );
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
  const headers = copyWithout(
    incoming,
    (name) => NOT_UPSTREAM.includes(name) || name.startsWith(NOT_UPSTREAM_PREFIX),
  );
  headers.set(API_KEY_HEADER, apiKey);
  headers.set('accept-encoding', 'identity');
  return headers;
}

/**
 * Headers for the browser, and whether a live header carried the key (that header is dropped).
 * `content-length` is kept only for bodies passed through unchanged and uncompressed
 * (downloads); buffered bodies get theirs from the server.
 */
export function downstreamResponseHeaders(
  upstream: Headers,
  scrubber: KeyScrubber,
  options: { keepLength: boolean },
): { headers: Headers; keyFound: boolean } {
  const encoded = (upstream.get('content-encoding') ?? 'identity') !== 'identity';
  let keyFound = false;
  const headers = copyWithout(upstream, (name, value) => {
    const carriesKey = scrubber.foundIn(value);
    keyFound ||= carriesKey;
    return carriesKey || NOT_DOWNSTREAM.includes(name) || name.startsWith(CORS_PREFIX);
  });
  const length = upstream.get('content-length');
  if (options.keepLength && !encoded && length !== null) headers.set('content-length', length);
  return { headers, keyFound };
}
