/**
 * @module journal/query-keys
 * API keys a client puts in the query string by mistake (the API reads them from `x-api-key`
 * only): the parameter names taken for keys, whose values are blanked whatever they hold (a key
 * of the client's that this mock does not know is still a key), for the request log, the request
 * journal and error bodies. A configured secret anywhere else (a value, a name, inside either, in
 * any case or encoding) is found by `src/redaction.ts`, the one way (`isSecret`, `scrubber`).
 * docs/hardening.md lists the rules.
 */
import type { SecretScrubber } from '../../redaction.js';

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
/**
 * What the value of a key-like query parameter is shown as. Not the proxy's `***` (which stands for
 * a known key found in text): here the parameter's name or value is the evidence.
 */
export const KEY_PARAMETER_VALUE_SHOWN = 'REDACTED';

/** Every name above holds one of these, or is percent-encoded (a "+" decodes to a space, never a letter). */
const MAYBE_KEY_NAME = /key|token|auth|secret|password|%/i;

/** Whether a (decoded) value holds a configured secret in any form (the scrubber's `foundIn`). */
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
 * The raw query (without `?`) with the value of every key-like parameter replaced by REDACTED,
 * and every configured secret left anywhere in it (a name, a value, inside either, encoded)
 * replaced by the scrubber's `***`.
 */
export function redactQueryKeys(search: string, scrubber?: SecretScrubber): string {
  const named = MAYBE_KEY_NAME.test(search)
    ? search
        .split('&')
        .map((part) => {
          const eq = part.indexOf('=');
          const name = eq === -1 ? part : part.slice(0, eq);
          return isKeyParameter(decoded(name)) ? `${name}=${KEY_PARAMETER_VALUE_SHOWN}` : part;
        })
        .join('&')
    : search;
  return scrubber ? scrubber.scrubText(named) : named;
}
