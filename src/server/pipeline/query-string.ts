/**
 * @module query-string
 * Strict query-string parsing (and the URL splitter, re-exported). `URLSearchParams` silently keeps malformed `%` escapes; the mock
 * answers them with a 400 that names the parameter instead, so clients learn about their bug.
 */
import type { InputProblem } from '../../contract/index.js';

/** Decodes one component (`+` is a space in query strings); undefined when the escape is malformed. */
function decodeComponent(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** Name/value pairs in order, or the problems found. An empty query gives no pairs. */
export function parseQueryString(search: string): {
  pairs: [string, string][];
  problems: InputProblem[];
} {
  const pairs: [string, string][] = [];
  const problems: InputProblem[] = [];
  const text = search.startsWith('?') ? search.slice(1) : search;
  if (text === '') return { pairs, problems };
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    const name = decodeComponent(rawName);
    const value = decodeComponent(rawValue);
    if (name === undefined || value === undefined) {
      problems.push({
        in: 'query',
        name: name ?? rawName,
        rule: 'valid percent-encoding (RFC 3986)',
        message: `query parameter "${name ?? rawName}" has a malformed percent-escape`,
        received: part,
      });
      continue;
    }
    pairs.push([name, value]);
  }
  return { pairs, problems };
}

/** Shared with the proxy and replay (src/net/): one splitter for every raw URL. */
export { splitUrl } from '../../net/request-url.js';
