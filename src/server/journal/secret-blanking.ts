/**
 * @module journal/secret-blanking
 * What the journal keeps of a value, a text or a JSON body, with every configured secret (an API
 * key, the admin token) blanked by `src/redaction.ts`, the one way the project finds one: in any
 * case or encoding (percent, JSON escapes, HTML references, hex, base64), inside a longer string,
 * in an object member's name as in its value. The secrets are fixed when the app is built, so the
 * same input always comes out the same: a client that sends the same request again (the common
 * case) gets its pieces from bounded caches instead of having them searched again. Only what holds
 * no secret is kept by its raw text; a value object is kept by identity, and only when frozen
 * (validation's cached inputs), so a later change to it cannot go unseen. What comes out of a
 * cache is frozen: journal entries share it. Every walk over a value is iterative.
 */
import { mapJsonStrings, type SecretScrubber } from '../../redaction.js';
import { deepFreeze } from '../deep-freeze.js';
import { Lru } from '../lru.js';

/** Texts (header values, paths, short bodies) known to hold no secret; longer ones are searched every time. */
const CLEAN_TEXT_ENTRIES = 1024;
const CLEAN_TEXT_MAX_CHARS = 1024;
/** Blanked JSON bodies by their text, bounded by count and by the texts' total length. */
const BODY_ENTRIES = 512;
const BODY_MAX_CHARS = 8 * 1024 * 1024;
/**
 * Deepest JSON body the journal keeps as a value: a deeper one is kept as text (blanked), so
 * whoever reads the journal later (a match, JSON.stringify for Redis) meets no deep structure.
 */
export const MAX_JOURNAL_BODY_DEPTH = 64;

export interface SecretBlanker {
  /** A copy of a JSON value with every secret blanked in names and strings (the value itself when there is nothing to find). */
  value(value: unknown): unknown;
  /** Text with every secret blanked, in any of its forms. */
  text(text: string): string;
  /** The JSON body's value, blanked, or undefined when the text is not JSON or nests too deep. */
  jsonBody(text: string): unknown;
}

/** Whether a JSON value nests deeper than `limit` (counted without recursion). */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [v, depth] = pending.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(v)) pending.push([child, depth + 1]);
  }
  return false;
}

export function secretBlanker(scrubber: SecretScrubber | undefined): SecretBlanker {
  const blankedObjects = new WeakMap<object, unknown>();
  const cleanTexts = new Lru<string, true>(CLEAN_TEXT_ENTRIES);
  // Sized by the text, which bounds the parsed value's size too.
  const bodies = new Lru<string, { value: unknown; chars: number }>(
    BODY_ENTRIES,
    BODY_MAX_CHARS,
    (entry) => entry.chars,
  );
  const blankText = (raw: string) => (scrubber ? scrubber.scrubText(raw) : raw);
  const blanked = (input: unknown) => mapJsonStrings(input, blankText, blankText);

  function value(input: unknown): unknown {
    if (!scrubber) return input;
    if (!input || typeof input !== 'object' || !Object.isFrozen(input)) return blanked(input);
    if (blankedObjects.has(input)) return blankedObjects.get(input);
    const out = deepFreeze(blanked(input));
    blankedObjects.set(input, out);
    return out;
  }

  function text(raw: string): string {
    if (!scrubber || cleanTexts.has(raw)) return raw;
    const shown = scrubber.scrubText(raw);
    if (shown === raw && raw.length <= CLEAN_TEXT_MAX_CHARS) cleanTexts.set(raw, true);
    return shown;
  }

  function jsonBody(raw: string): unknown {
    const hit = bodies.get(raw);
    if (hit) return hit.value;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw) as unknown;
    } catch {
      return undefined;
    }
    if (nestsDeeperThan(parsed, MAX_JOURNAL_BODY_DEPTH)) return undefined;
    // The raw text holds every form a parsed string or name could (JSON escapes included).
    const value = deepFreeze(scrubber?.foundIn(raw) ? blanked(parsed) : parsed);
    bodies.set(raw, { value, chars: raw.length });
    return value;
  }

  return { value, text, jsonBody };
}
