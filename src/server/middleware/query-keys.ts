/**
 * @module middleware/query-keys
 * API keys a client puts in the query string by mistake (the API reads them from `x-api-key`
 * only): the parameter names taken for keys, and the query text with their values blanked, for
 * the request log, the request journal and error bodies. Besides these names, any value equal to
 * a configured key's secret is blanked whatever its parameter's name (`isSecret`, from the key
 * store), so `?q=<key>` is no leak either. docs/hardening.md lists the rules.
 */

/** Query parameter names whose value is taken to be an API key (compared case-insensitively, decoded). */
export const KEY_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'api_key',
  'api-key',
  'apikey',
  'x-api-key',
  'x_api_key',
  'key',
  'token',
  'access_token',
  'access-token',
  'auth',
  'authorization',
  'secret',
  'password',
]);
export const REDACTED = 'REDACTED';

/** Every name above holds one of these, or is percent-encoded (a "+" decodes to a space, never a letter). */
const MAYBE_KEY_NAME = /key|token|auth|secret|password|%/i;

/** Whether a (decoded) query value is one of the configured keys' secrets. */
export type IsSecret = (value: string) => boolean;

function decoded(raw: string): string {
  // Most components have nothing to decode; decoding them anyway was a measurable share of a list request.
  if (!raw.includes('%') && !raw.includes('+')) return raw;
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

export function isKeyParameter(name: string): boolean {
  return KEY_QUERY_PARAMETERS.has(name.toLowerCase());
}

/** Whether a query parameter's value must not be shown: a key-like name, or a secret's value. */
export function isSecretParameter(name: string, value: unknown, isSecret?: IsSecret): boolean {
  return isKeyParameter(name) || (typeof value === 'string' && isSecret?.(value) === true);
}

/**
 * The raw query (without `?`) with the value of every key-like parameter, and every value equal
 * to a secret (when `isSecret` is given), replaced by REDACTED. A query shorter than the shortest
 * secret (`shortestSecret`) holds no secret's value: then only a key-like name makes it split.
 */
export function redactQueryKeys(search: string, isSecret?: IsSecret, shortestSecret = 0): string {
  const mayHoldSecret = isSecret !== undefined && search.length >= shortestSecret;
  if (!mayHoldSecret && !MAYBE_KEY_NAME.test(search)) return search;
  return search
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      const value = eq === -1 ? '' : part.slice(eq + 1);
      return isSecretParameter(decoded(name), decoded(value), isSecret)
        ? `${name}=${REDACTED}`
        : part;
    })
    .join('&');
}
