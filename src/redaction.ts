/**
 * @module redaction
 * The one way every part of the project finds a secret (an API key, an admin token) in text or
 * bytes and blanks it: the proxy in live answers, headers and its report; the contract suite in
 * every report and message it writes; the recorder when it decides a value must not be kept.
 *
 * A secret is found in any spelling a service, a serializer or a log line could give it:
 * - each character as itself, percent-encoded (UTF-8 bytes, hex in either case; `+` for a space),
 *   JSON-escaped (`\u0064`, `\/`, `\"`, `\\`, nested up to three JSON levels deep, so each escape
 *   may carry up to seven backslashes), or an HTML character reference (`&#x64;`, `&#100;`), the
 *   forms mixed freely within one occurrence;
 * - in any case mix: each character also as its lower- and upper-case form (header names and media
 *   types arrive lower-cased, a log may upper-case), then spelled in any of the ways above;
 * - the whole secret, as given, lower-cased or upper-cased, hex-encoded (either case) or
 *   base64/base64url-encoded at each of the three alignments it can take inside a longer encoded
 *   string (the characters that depend on its neighbours cut off).
 * What it cannot see: the secret transformed beyond these (a hash, encryption, split by other
 * text, base64 of a case mix other than all-lower or all-upper).
 *
 * Text is redacted as it is; a structure to be written (a report, a profile) is redacted name by
 * name and value by value with `redactValue`, before it is serialised: redacting serialised JSON
 * would also rewrite the format's own words (`"keys"` holds a one-letter key `k`).
 * Bytes are matched through latin1, which leaves every other byte exactly as it was; a character
 * beyond ASCII is also matched as its UTF-8 bytes read that way.
 */
import {
  caseVariants,
  createMultiSecretSearch,
  encodedTexts,
  MAX_ESCAPE_BACKSLASHES,
} from './secret-search.js';

/** What a secret is replaced with, wherever it is found. */
export const REDACTED = '***';

/**
 * Longest spelling of one UTF-16 unit: seven backslashes and `u0064` (12). A reference is at most
 * 11 (`&#x0000064;`), percent-encoding 9 (three UTF-8 bytes), and the whole-secret encodings at
 * most 6 a unit (hex of three bytes).
 */
export const MAX_FORM_LENGTH = MAX_ESCAPE_BACKSLASHES + 'u0064'.length;

/** The longest a character can become: its longest case variant, each UTF-16 unit at its longest. */
function longestCharacterForm(ch: string): number {
  return Math.max(...caseVariants(ch).map((variant) => variant.length)) * MAX_FORM_LENGTH;
}

/**
 * A length no form of the secret is shorter than: a text shorter than this cannot hold it, so a
 * hot path may skip the search. Each character is at least one unit in every per-character form.
 */
function shortestForm(secret: string): number {
  const perCharacter = [...secret].reduce(
    (sum, ch) => sum + Math.min(...caseVariants(ch).map((variant) => variant.length)),
    0,
  );
  return Math.min(
    perCharacter,
    ...caseVariants(secret)
      .flatMap(encodedTexts)
      .map((f) => f.length),
  );
}

export interface SecretScrubber {
  /** The text with every occurrence replaced by `***`. */
  scrubText(text: string): string;
  /** Whether the text holds the secret in any form (any case included). */
  foundIn(text: string): boolean;
  /** The bytes with every occurrence replaced, and whether there was one (the same array when not). */
  scrubBytes(bytes: Uint8Array<ArrayBuffer>): { bytes: Uint8Array<ArrayBuffer>; found: boolean };
  /** A length no form of the secret exceeds: a stream scanner keeps this much minus one. */
  readonly longestForm: number;
  /** A length no form of the secret is shorter than: a shorter text cannot hold it. */
  readonly shortestForm: number;
}

export function createSecretScrubber(secret: string): SecretScrubber {
  if (secret === '') throw new Error('the secret scrubber needs a non-empty secret');
  return createSecretsScrubber([secret]);
}

/**
 * One scrubber for several secrets (a mock's keys and admin token): one search finds any of them
 * in any of the forms above, at a cost per character that does not grow with their number
 * (src/secret-search.ts; bench/README.md). At each place the first secret found there is blanked
 * (longer secrets first: where one secret contains another, the whole of the longer one is
 * blanked), and the search goes on after it. Empty secrets are left out; with none left, nothing
 * is ever found.
 */
export function createSecretsScrubber(secrets: readonly string[]): SecretScrubber {
  const live = [...new Set(secrets.filter((secret) => secret !== ''))];
  live.sort((a, b) => b.length - a.length);
  const search = createMultiSecretSearch(live);
  return scrubberOver({
    endAt: (text, pos) => search.endAt(text, pos),
    shortestForm: live.length === 0 ? Infinity : Math.min(...live.map(shortestForm)),
    longestForm: Math.max(
      0,
      ...live.map((secret) => [...secret].reduce((sum, ch) => sum + longestCharacterForm(ch), 0)),
    ),
  });
}

/** A search for secrets: where the one found at a place ends (-1: none), and its bounds. */
export interface SecretFinder {
  endAt(text: string, pos: number): number;
  /** A quick test no text holding a secret fails (absent: every text is searched). */
  mayHold?(text: string): boolean;
  shortestForm: number;
  longestForm: number;
}

/**
 * The scrubber over a search: at each place the first secret found there is blanked, and the search
 * goes on after it (for secrets by their text above, for keys by their form in src/key-forms.ts).
 */
export function scrubberOver(finder: SecretFinder): SecretScrubber {
  const { endAt, shortestForm: shortest } = finder;
  const mayHold = finder.mayHold ?? (() => true);
  const foundIn = (text: string) => {
    if (text.length < shortest || !mayHold(text)) return false;
    for (let pos = 0; pos <= text.length - shortest; pos += 1)
      if (endAt(text, pos) >= 0) return true;
    return false;
  };
  const scrubText = (text: string) => {
    if (text.length < shortest || !mayHold(text)) return text;
    let out = '';
    let kept = 0;
    for (let pos = 0; pos <= text.length - shortest;) {
      const end = endAt(text, pos);
      if (end < 0) pos += 1;
      else {
        out += text.slice(kept, pos) + REDACTED;
        kept = pos = end;
      }
    }
    return kept === 0 ? text : out + text.slice(kept);
  };
  return {
    scrubText,
    foundIn,
    scrubBytes(bytes) {
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
      if (!foundIn(text)) return { bytes, found: false };
      return { bytes: new Uint8Array(Buffer.from(scrubText(text), 'latin1')), found: true };
    },
    longestForm: finder.longestForm,
    shortestForm: shortest,
  };
}

/** Scrubbers by their secrets, for apps built again and again with the same keys (tests). */
const sharedScrubbers = new Map<string, SecretScrubber>();
const MAX_SHARED_SCRUBBERS = 16;

/**
 * createSecretsScrubber's scrubber for these secrets, made once per process: every mock app built
 * with the same keys file shares its index of the secrets' spellings.
 */
export function sharedSecretsScrubber(secrets: readonly string[]): SecretScrubber {
  const id = JSON.stringify([...new Set(secrets)].sort());
  let scrubber = sharedScrubbers.get(id);
  if (!scrubber) {
    if (sharedScrubbers.size >= MAX_SHARED_SCRUBBERS) sharedScrubbers.clear();
    scrubber = createSecretsScrubber(secrets);
    sharedScrubbers.set(id, scrubber);
  }
  return scrubber;
}

/** Scrubbers by secret: a run knows a handful of secrets and redacts many texts with them. */
const scrubbers = new Map<string, SecretScrubber>();
const MAX_CACHED_SCRUBBERS = 64;

function scrubberFor(secret: string): SecretScrubber {
  let scrubber = scrubbers.get(secret);
  if (!scrubber) {
    if (scrubbers.size >= MAX_CACHED_SCRUBBERS) scrubbers.clear();
    scrubber = createSecretScrubber(secret);
    scrubbers.set(secret, scrubber);
  }
  return scrubber;
}

/** Replaces every form of every (non-empty) secret in a text with `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = scrubberFor(secret).scrubText(out);
  return out;
}

/** Whether any (non-empty) secret appears in the text, in any form. */
export function holdsSecret(text: string, secrets: readonly string[]): boolean {
  return secrets.some((secret) => secret !== '' && scrubberFor(secret).foundIn(text));
}

/**
 * A copy of a JSON value with `name` applied to every object member's name and `text` to every
 * string, walked with a stack of its own (never the call stack), so no nesting depth reaches a
 * stack limit. Objects come back without a prototype, so a name such as `__proto__` stays a name;
 * two names that map alike keep the later one's value.
 */
export function mapJsonStrings(
  value: unknown,
  text: (s: string) => string,
  name: (s: string) => string = (s) => s,
): unknown {
  const leaf = (v: unknown) => (typeof v === 'string' ? text(v) : v);
  if (value === null || typeof value !== 'object') return leaf(value);
  const container = (v: object): unknown[] | Record<string, unknown> =>
    Array.isArray(v) ? [] : (Object.create(null) as Record<string, unknown>);
  const root = container(value);
  const pending: [object, unknown[] | Record<string, unknown>][] = [[value, root]];
  while (pending.length > 0) {
    const [source, target] = pending.pop()!;
    const entries: [string | number, unknown][] = Array.isArray(source)
      ? source.map((child: unknown, i) => [i, child])
      : Object.entries(source);
    for (const [key, child] of entries) {
      let out: unknown = leaf(child);
      if (child !== null && typeof child === 'object') {
        out = container(child);
        pending.push([child, out as unknown[] | Record<string, unknown>]);
      }
      if (Array.isArray(target)) target.push(out);
      else target[name(key as string)] = out;
    }
  }
  return root;
}

/**
 * A copy of a JSON value with every secret blanked in every object name and every string value,
 * for a writer to serialise (never the serialised text: see the module comment). `own` holds the
 * writer's own words (its format's property names and fixed values): they are kept as they are,
 * whatever a short secret matches in them. Objects come back without a prototype (mapJsonStrings).
 */
export function redactValue<T>(
  value: T,
  secrets: readonly string[],
  own: ReadonlySet<string> = new Set(),
): T {
  const live = secrets.filter((secret) => secret !== '');
  if (live.length === 0) return value;
  const text = (s: string) => (own.has(s) ? s : redactSecrets(s, live));
  return mapJsonStrings(value, text, text) as T;
}

/**
 * A copy of a JSON value with every secret blanked in every string value, its object names kept:
 * for a writer whose every name is its own (a report whose shape the code fixes, where a server's
 * text only ever arrives as a string value), so a short secret cannot rewrite the format itself.
 */
export function redactStringValues<T>(value: T, secrets: readonly string[]): T {
  const live = secrets.filter((secret) => secret !== '');
  if (live.length === 0) return value;
  return mapJsonStrings(value, (s) => redactSecrets(s, live)) as T;
}

/** Whether any object name or string value of a JSON value holds a (non-empty) secret in any form. */
export function valueHoldsSecret(value: unknown, secrets: readonly string[]): boolean {
  const live = secrets.filter((secret) => secret !== '');
  if (live.length === 0) return false;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (holdsSecret(v, live)) return true;
    } else if (Array.isArray(v)) pending.push(...(v as unknown[]));
    else if (v !== null && typeof v === 'object')
      for (const [name, child] of Object.entries(v)) {
        if (holdsSecret(name, live)) return true;
        pending.push(child);
      }
  }
  return false;
}
