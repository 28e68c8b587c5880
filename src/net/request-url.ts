/**
 * @module net/request-url
 * The split of a request URL into its path and query, both still percent-encoded: the mock, the
 * proxy and replay must all see the bytes the client sent, not a decoded copy.
 */

/** The path and query of a request URL, both still percent-encoded. */
export function splitUrl(url: string): { rawPath: string; search: string } {
  const pathStart = url.indexOf('/', url.indexOf('://') + 3);
  const queryStart = url.indexOf('?', pathStart);
  const end = queryStart === -1 ? url.length : queryStart;
  const hashStart = url.indexOf('#', pathStart);
  return {
    rawPath:
      pathStart === -1
        ? '/'
        : url.slice(pathStart, hashStart !== -1 && hashStart < end ? hashStart : end),
    search: queryStart === -1 ? '' : url.slice(queryStart + 1),
  };
}
