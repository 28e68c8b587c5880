/**
 * @module proxy/key-scrub
 * Finds the API key in any of the encodings a live service (or a log line) could echo it in, and
 * replaces it. Each character of the key may appear as itself, percent-encoded (`%64`, `%6D`),
 * JSON-escaped (`\u0064`, and `\/` for a slash) or as an HTML character reference (`&#x64;`,
 * `&#100;`), hex digits in either case, forms mixed freely within one occurrence. What it cannot
 * see: the key transformed beyond a per-character escape (base64, a hash, split by other text).
 * Keys are visible ASCII (checked at startup), so bodies are matched byte for byte through
 * latin1, which leaves every other byte exactly as it was.
 */
/** What the key is replaced with, wherever it is found. */
export const REDACTED = '***';

/** Longest form of one character: `&#x0000064;`-like references are capped at this many digits. */
const MAX_ENTITY_DIGITS = 7;
const MAX_FORM_LENGTH = `&#x${'0'.repeat(MAX_ENTITY_DIGITS)};`.length;

/** `6d` -> `6[dD]`: hex digits in either case. */
function anyCaseHex(hex: string): string {
  return [...hex].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Every spelling of one ASCII character, as a regular expression alternative. */
function characterForms(ch: string): string {
  const code = ch.charCodeAt(0);
  const hex = code.toString(16).padStart(2, '0');
  const forms = [
    escapeRegExp(ch),
    `%${anyCaseHex(hex)}`,
    `\\\\u00${anyCaseHex(hex)}`,
    `&#[xX]0{0,${MAX_ENTITY_DIGITS - hex.length}}${anyCaseHex(hex)};`,
    `&#0{0,${MAX_ENTITY_DIGITS - String(code).length}}${code};`,
  ];
  if (ch === '/') forms.push('\\\\/');
  return `(?:${forms.join('|')})`;
}

export interface KeyScrubber {
  /** The text with every occurrence replaced by `***`. */
  scrubText(text: string): string;
  /** Whether the text holds the key in any form. */
  foundIn(text: string): boolean;
  /** The same, ignoring case: for header names, which arrive lower-cased whatever the sender wrote. */
  foundInName(name: string): boolean;
  /** The bytes with every occurrence replaced, and whether there was one (the same array when not). */
  scrubBytes(bytes: Uint8Array<ArrayBuffer>): { bytes: Uint8Array<ArrayBuffer>; found: boolean };
  /** A byte count no encoded occurrence is longer than: a stream scanner keeps this much minus one. */
  readonly longestForm: number;
}

export function createKeyScrubber(key: string): KeyScrubber {
  if (!/^[\x21-\x7e]+$/.test(key))
    throw new Error('the key scrubber needs a key of visible ASCII characters');
  const source = [...key].map(characterForms).join('');
  const pattern = new RegExp(source, 'g');
  const probe = new RegExp(source);
  const nameProbe = new RegExp(source, 'i');
  return {
    scrubText: (text) => text.replace(pattern, REDACTED),
    foundIn: (text) => probe.test(text),
    foundInName: (name) => nameProbe.test(name),
    scrubBytes(bytes) {
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
      if (!probe.test(text)) return { bytes, found: false };
      return {
        bytes: new Uint8Array(Buffer.from(text.replace(pattern, REDACTED), 'latin1')),
        found: true,
      };
    },
    longestForm: key.length * MAX_FORM_LENGTH,
  };
}
