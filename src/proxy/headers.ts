/**
 * @module proxy/headers
 * What crosses the proxy in each direction. Upstream: the allow-listed headers of the browser's
 * request (FORWARDED_REQUEST_HEADERS), plus our key. Downstream: the live headers minus hop-by-hop
 * ones, cookies, the live service's own CORS answer, and any header carrying the key in any
 * encoding, in its value or its name.
 */
import type { SecretScrubber } from '../redaction.js';

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
 * The only request headers sent upstream from the browser's request: what a page's request to a
 * read-only JSON API may carry and the live service may act on. An allow-list, because a deny-list
 * is always one name short: client-address headers (`Client-IP`, `Fastly-Client-IP`,
 * `X-Originating-IP`, `Forwarded`, ...), method and URL overrides (`X-HTTP-Method-Override`,
 * `X-Original-URL`), keys under other spellings (`X_API_KEY`), cookies and credentials, the mock's
 * admin token, and the browser's identity (`User-Agent`, `Referer`, `Origin`) all stay behind.
 * `prefer` is the mock's QA header (the live service ignores it); the conditional and range
 * headers let a browser revalidate a cached answer or resume a download.
 */
export const FORWARDED_REQUEST_HEADERS = [
  'accept',
  'accept-language',
  'cache-control',
  'content-type',
  'if-modified-since',
  'if-none-match',
  'if-range',
  'prefer',
  'range',
] as const;
const FORWARDED = new Set<string>(FORWARDED_REQUEST_HEADERS);

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
  const headers = copyWithout(incoming, (name) => !FORWARDED.has(name));
  headers.set(API_KEY_HEADER, apiKey);
  headers.set('accept-encoding', 'identity');
  return headers;
}

/**
 * Headers for the browser, and whether a live header carried the key in its value or its name
 * (that header is dropped).
 * `content-length` is kept only for bodies passed through unchanged and uncompressed
 * (downloads); buffered bodies get theirs from the server.
 */
export function downstreamResponseHeaders(
  upstream: Headers,
  scrubber: SecretScrubber,
  options: { keepLength: boolean },
): { headers: Headers; keyFound: boolean } {
  const encoded = (upstream.get('content-encoding') ?? 'identity') !== 'identity';
  let keyFound = false;
  const headers = copyWithout(upstream, (name, value) => {
    const carriesKey = scrubber.foundIn(value) || scrubber.foundIn(name);
    keyFound ||= carriesKey;
    return carriesKey || NOT_DOWNSTREAM.includes(name) || name.startsWith(CORS_PREFIX);
  });
  const length = upstream.get('content-length');
  if (options.keepLength && !encoded && length !== null) headers.set('content-length', length);
  return { headers, keyFound };
}
