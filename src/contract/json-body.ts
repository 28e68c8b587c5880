/**
 * @module contract/json-body
 * The one way a received JSON body becomes text and a value, for everyone who checks responses
 * (the proxy, the contract suite): decoded as UTF-8 strictly, since JSON exchanged between
 * systems must be UTF-8 (RFC 8259, section 8.1). Bytes that are not UTF-8 are still decoded (as
 * U+FFFD) so the rest of the body is checked, and `encodingError` says so: checkResponse makes it
 * a `json` finding instead of letting the replacement pass silently.
 */
import type { ResponseBody } from './check-response.js';

const strict = new TextDecoder('utf-8', { fatal: true });
const lenient = new TextDecoder('utf-8');

/** What invalid UTF-8 is reported as. */
export const NOT_UTF8 =
  'not valid UTF-8 (RFC 8259 8.1); the bytes that are not were read as U+FFFD';

/** The text of a body, and `encodingError` when its bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { text: string; encodingError?: string } {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    return { text: lenient.decode(bytes), encodingError: NOT_UTF8 };
  }
}

/** A JSON body as checkResponse takes it: parsed, or the text that did not parse. */
export function parseJsonBody(bytes: Uint8Array): ResponseBody {
  const { text, encodingError } = decodeUtf8(bytes);
  const more = encodingError ? { encodingError } : {};
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown, ...more };
  } catch (error) {
    return { kind: 'invalid-json', text, error: (error as Error).message, ...more };
  }
}
