/**
 * @module middleware/query-keys
 * API keys a client puts in the query string by mistake (the API reads them from `x-api-key`
 * only): the parameter names taken for keys, and the query text with their values blanked, for
 * the request log, the request journal and error bodies.
 */

/** Query parameter names whose value is taken to be an API key (compared case-insensitively, decoded). */
export const KEY_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'api_key',
  'x-api-key',
  'key',
  'apikey',
]);
/**
 * What the value of a key-like query parameter is shown as. Not the proxy's `***` (which stands for
 * a known key found in text): here the secret is unknown and the parameter's name is the evidence.
 */
export const KEY_PARAMETER_VALUE_SHOWN = 'REDACTED';

const MAYBE_KEY_NAME = /key|%/i;

function decodedName(raw: string): string {
  // Most names have nothing to decode; decoding them anyway was a measurable share of a list request.
  if (!raw.includes('%') && !raw.includes('+')) return raw.toLowerCase();
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

export function isKeyParameter(name: string): boolean {
  return KEY_QUERY_PARAMETERS.has(name.toLowerCase());
}

/** The raw query (without `?`) with the value of every key-like parameter replaced by REDACTED. */
export function redactQueryKeys(search: string): string {
  // Every key-like name has "key" in it, or is percent-encoded (a "+" decodes to a space, never a letter).
  if (!MAYBE_KEY_NAME.test(search)) return search;
  return search
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      return KEY_QUERY_PARAMETERS.has(decodedName(name))
        ? `${name}=${KEY_PARAMETER_VALUE_SHOWN}`
        : part;
    })
    .join('&');
}
