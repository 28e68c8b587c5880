/**
 * @module middleware/secret-blanking
 * What the journal keeps of a value, a text or a JSON body, with every string equal to a
 * configured key's secret blanked. The keys are fixed when the app is built, so the same input
 * always comes out the same: a client that sends the same request again (the common case) gets
 * its pieces from bounded caches instead of having each string hashed against the keys again.
 * Only what holds no secret is kept by its raw text; a value object is kept by identity, and only
 * when frozen (validation's cached inputs), so a later change to it cannot go unseen. What comes
 * out of a cache is frozen: journal entries share it.
 */
import { deepFreeze } from '../deep-freeze.js';
import { Lru } from '../lru.js';
import type { IsSecret } from './query-keys.js';

/** What a secret found in a kept value is shown as. */
const SECRET_SHOWN = '***';

/** Texts (header values, short bodies) known to hold no secret token; longer ones are checked every time. */
const CLEAN_TEXT_ENTRIES = 1024;
const CLEAN_TEXT_MAX_CHARS = 1024;
/** Blanked JSON bodies by their text, bounded by count and by the texts' total length. */
const BODY_ENTRIES = 512;
const BODY_MAX_CHARS = 8 * 1024 * 1024;

export interface SecretBlanker {
  /** A copy of a JSON value with every string equal to a secret blanked (the value itself when there is no check). */
  value(value: unknown): unknown;
  /** Text with any token (between spaces, commas, semicolons, equals signs, quotes, braces) that is a secret blanked. */
  text(text: string): string;
  /** The JSON body's value, blanked, or undefined when the text is not JSON. */
  jsonBody(text: string): unknown;
}

export function secretBlanker(isSecret: IsSecret | undefined): SecretBlanker {
  const blankedObjects = new WeakMap<object, unknown>();
  const cleanTexts = new Lru<string, true>(CLEAN_TEXT_ENTRIES);
  // Sized by the text, which bounds the parsed value's size too.
  const bodies = new Lru<string, { value: unknown; chars: number }>(
    BODY_ENTRIES,
    BODY_MAX_CHARS,
    (entry) => entry.chars,
  );

  function blanked(value: unknown, check: IsSecret): unknown {
    if (typeof value === 'string') return check(value) ? SECRET_SHOWN : value;
    if (Array.isArray(value)) return value.map((v) => blanked(v, check));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const [name, v] of Object.entries(value)) out[name] = blanked(v, check);
      return { ...out };
    }
    return value;
  }

  function value(input: unknown): unknown {
    if (!isSecret) return input;
    if (!input || typeof input !== 'object' || !Object.isFrozen(input))
      return blanked(input, isSecret);
    if (blankedObjects.has(input)) return blankedObjects.get(input);
    const out = deepFreeze(blanked(input, isSecret));
    blankedObjects.set(input, out);
    return out;
  }

  function text(raw: string): string {
    if (!isSecret) return raw;
    if (cleanTexts.has(raw)) return raw;
    const shown = raw
      .split(/([\s,;="':{}[\]]+)/)
      .map((token) => (isSecret(token) ? SECRET_SHOWN : token))
      .join('');
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
    const value = deepFreeze(isSecret ? blanked(parsed, isSecret) : parsed);
    bodies.set(raw, { value, chars: raw.length });
    return value;
  }

  return { value, text, jsonBody };
}
