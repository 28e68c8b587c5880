/**
 * @module secret-search
 * The search behind src/redaction.ts: finds the first spelling of any of many secrets at a place in
 * a text, at a cost per character that does not grow with the number of secrets.
 *
 * Each place is first looked up in two tries that split only as deep as the secrets need to be
 * told apart: one over the characters the text spells there (each decoded from any of its escapes
 * and case-folded; a secret is indexed by its ASCII prefix, so one starting beyond ASCII is tried at
 * every place), one over the characters as they stand (case-folded) for the whole-secret
 * encodings. Only the few secrets those name (at most a bucket's worth per node) are then matched
 * exactly, in the order and with the choices a regular expression made of
 * the spellings would take (each character's case variants, then each code point's forms in turn).
 * The spellings themselves are described in src/redaction.ts.
 */

/** Longest `&#x0000064;`-like reference: at most this many digits. */
const MAX_ENTITY_DIGITS = 7;
/** JSON inside JSON inside JSON: `"` is `\"`, then `\\\"`, then `\\\\\\\"`. */
export const MAX_ESCAPE_BACKSLASHES = 7;
/** Encodings of the whole secret shorter than this are not looked for (they would match noise). */
export const MIN_WHOLE_FORM = 8;

const BACKSLASH = 0x5c;

/** A character as itself, lower-cased and upper-cased (either may be several code points: `ß` is `SS`). */
export function caseVariants(text: string): string[] {
  return [...new Set([text, text.toLowerCase(), text.toUpperCase()])];
}

/** A whole-secret encoding: hex matches its digits in either case, base64 exactly. */
interface WholeForm {
  text: string;
  anyCase: boolean;
}

/** One secret, ready to match: per character its case variants as code points, and its encodings. */
interface Compiled {
  characters: number[][][];
  whole: WholeForm[];
}

/** Whether `pattern` stands at `pos`, its `a`-`f` and `x` also matching their upper case. */
function standsLoose(text: string, pos: number, pattern: string): boolean {
  if (pos + pattern.length > text.length) return false;
  for (let i = 0; i < pattern.length; i += 1) {
    const p = pattern.charCodeAt(i);
    const t = text.charCodeAt(pos + i);
    if (t !== p && !(((p >= 0x61 && p <= 0x66) || p === 0x78) && t === p - 32)) return false;
  }
  return true;
}

/** How many backslashes stand at `pos`, counting at most `limit`. */
function backslashRun(text: string, pos: number, limit: number): number {
  let run = 0;
  while (run < limit && text.charCodeAt(pos + run) === BACKSLASH) run += 1;
  return run;
}

/** `\\\u0064`: the end of one JSON escape of this UTF-16 unit at `pos`, or -1. */
function jsonUnitEnd(text: string, pos: number, unit: number): number {
  const run = backslashRun(text, pos, MAX_ESCAPE_BACKSLASHES + 1);
  if (run === 0 || run > MAX_ESCAPE_BACKSLASHES) return -1;
  const hex = `u${unit.toString(16).padStart(4, '0')}`;
  return standsLoose(text, pos + run, hex) ? pos + run + hex.length : -1;
}

/** `&#x0064;` / `&#100;`: the end of a reference with up to MAX_ENTITY_DIGITS digits, or -1. */
function referenceEnd(text: string, pos: number, prefix: string, digits: string): number {
  if (!standsLoose(text, pos, prefix)) return -1;
  const start = pos + prefix.length;
  const zeros = Math.max(0, MAX_ENTITY_DIGITS - digits.length);
  let run = 0;
  while (run < zeros && text.charCodeAt(start + run) === 0x30) run += 1;
  for (let k = run; k >= 0; k -= 1)
    if (standsLoose(text, start + k, `${digits};`)) return start + k + digits.length + 1;
  return -1;
}

/** A code point's fixed spellings, in the order they are tried. */
interface CodePointForms {
  literal: string;
  percent: string;
  units: number[];
  hex: string;
  decimal: string;
  latin1: string | null;
}

const formsCache = new Map<number, CodePointForms>();

function formsOf(code: number): CodePointForms {
  let forms = formsCache.get(code);
  if (!forms) {
    const ch = String.fromCodePoint(code);
    const utf8 = Buffer.from(ch, 'utf8');
    forms = {
      literal: ch,
      percent: [...utf8].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
      units: Array.from({ length: ch.length }, (_, i) => ch.charCodeAt(i)),
      hex: code.toString(16),
      decimal: String(code),
      latin1: utf8.length > 1 || code > 0x7e ? utf8.toString('latin1') : null,
    };
    if (formsCache.size < 4096) formsCache.set(code, forms);
  }
  return forms;
}

/** Every end of a spelling of this code point at `pos` but itself, in the order they are tried. */
function escapedEnds(text: string, pos: number, code: number): number[] {
  const f = formsOf(code);
  const ends: number[] = [];
  if (standsLoose(text, pos, f.percent)) ends.push(pos + f.percent.length);
  let end = pos;
  for (const unit of f.units) if (end >= 0) end = jsonUnitEnd(text, end, unit);
  if (end >= 0) ends.push(end);
  end = referenceEnd(text, pos, '&#x', f.hex);
  if (end >= 0) ends.push(end);
  end = referenceEnd(text, pos, '&#', f.decimal);
  if (end >= 0) ends.push(end);
  if (f.latin1 !== null && text.startsWith(f.latin1, pos)) ends.push(pos + f.latin1.length);
  if (code === 0x2f || code === 0x22) {
    const run = backslashRun(text, pos, MAX_ESCAPE_BACKSLASHES + 1);
    if (run > 0 && run <= MAX_ESCAPE_BACKSLASHES && text.codePointAt(pos + run) === code)
      ends.push(pos + run + 1);
  }
  if (code === BACKSLASH)
    for (let run = backslashRun(text, pos, MAX_ESCAPE_BACKSLASHES + 1); run > 0; run -= 1)
      ends.push(pos + run);
  if (code === 0x20 && text.charCodeAt(pos) === 0x2b) ends.push(pos + 1);
  return ends;
}

/** The end of the first spelling of characters[k..] at `pos` (backtracking as an expression does), or -1. */
function charactersEnd(text: string, pos: number, characters: number[][][], k: number): number {
  if (k === characters.length) return pos;
  for (const variant of characters[k]) {
    const end = variantEnd(text, pos, characters, k, variant, 0);
    if (end >= 0) return end;
  }
  return -1;
}

function variantEnd(
  text: string,
  pos: number,
  characters: number[][][],
  k: number,
  variant: number[],
  j: number,
): number {
  if (j === variant.length) return charactersEnd(text, pos, characters, k + 1);
  // The character as itself first (the common case), before the escapes are worked out.
  const literal = formsOf(variant[j]).literal;
  if (text.startsWith(literal, pos)) {
    const end = variantEnd(text, pos + literal.length, characters, k, variant, j + 1);
    if (end >= 0) return end;
  }
  for (const next of escapedEnds(text, pos, variant[j])) {
    const end = variantEnd(text, next, characters, k, variant, j + 1);
    if (end >= 0) return end;
  }
  return -1;
}

/** The end of this secret's first spelling at `pos`: character by character, then whole. */
function secretEnd(text: string, pos: number, secret: Compiled): number {
  const end = charactersEnd(text, pos, secret.characters, 0);
  if (end >= 0) return end;
  for (const form of secret.whole) {
    if (form.anyCase ? standsLoose(text, pos, form.text) : text.startsWith(form.text, pos))
      return pos + form.text.length;
  }
  return -1;
}

/** One whole-secret encoding: its text, and the alignment a base64 one was cut at. */
export interface Encoding {
  text: string;
  /** Absent for hex; else the secret's offset in the encoded data's groups of three bytes. */
  base64Offset?: 0 | 1 | 2;
}

/**
 * The secret's bytes hex-encoded and base64(url)-encoded at its three possible alignments (the
 * characters it shares with its neighbours cut off), those long enough to look for.
 */
export function encodings(secret: string): Encoding[] {
  const bytes = Buffer.from(secret, 'utf8');
  const encoded: Encoding[] = [{ text: bytes.toString('hex') }];
  for (const offset of [0, 1, 2] as const) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const fullGroups = Math.floor(padded.length / 3) * 4;
    const core = padded.toString('base64').slice(offset === 0 ? 0 : 4, fullGroups);
    for (const text of [core, core.replace(/\+/g, '-').replace(/\//g, '_')])
      encoded.push({ text, base64Offset: offset });
  }
  return encoded.filter((form) => form.text.length >= MIN_WHOLE_FORM);
}

/** The texts of `encodings`. */
export function encodedTexts(secret: string): string[] {
  return encodings(secret).map((form) => form.text);
}

/** The encodings of the secret as given, lower-cased and upper-cased, each once. */
function wholeForms(secret: string): WholeForm[] {
  const seen = new Set<string>();
  const forms: WholeForm[] = [];
  for (const variant of caseVariants(secret)) {
    const hex = Buffer.from(variant, 'utf8').toString('hex');
    for (const text of encodedTexts(variant)) {
      const anyCase = text === hex;
      const id = `${anyCase ? 'h' : 'b'}${text}`;
      if (!seen.has(id)) forms.push({ text, anyCase });
      seen.add(id);
    }
  }
  return forms;
}

function compile(secret: string): Compiled {
  return {
    characters: [...secret].map((ch) =>
      caseVariants(ch).map((variant) => [...variant].map((c) => c.codePointAt(0)!)),
    ),
    whole: wholeForms(secret),
  };
}

/** ASCII upper case folded to lower; anything else as it is. */
function fold(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 32 : code;
}

function hexValue(text: string, pos: number, digits: number, radix: 16 | 10): number {
  const part = text.slice(pos, pos + digits);
  const valid = radix === 16 ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/;
  return part.length === digits && valid.test(part) ? parseInt(part, radix) : -1;
}

/** `&#x41;` / `&#65;` at `pos`: [code, end] of a reference to an ASCII character, or null. */
function asciiReference(text: string, pos: number): [number, number] | null {
  if (text.charCodeAt(pos) !== 0x26 || text.charCodeAt(pos + 1) !== 0x23) return null;
  const isHex = (text.charCodeAt(pos + 2) | 0x20) === 0x78;
  const start = pos + (isHex ? 3 : 2);
  const close = text.indexOf(';', start);
  if (close < 0 || close - start > MAX_ENTITY_DIGITS + 2 || close === start) return null;
  const code = hexValue(text, start, close - start, isHex ? 16 : 10);
  return code >= 0 && code < 0x80 ? [code, close + 1] : null;
}

/**
 * Every ASCII character the text may spell at `pos`, folded, with where its spelling ends: a
 * superset of what spellingEnds accepts for an ASCII code point (the exact match decides).
 */
function asciiSpellings(text: string, pos: number, out: number[]): void {
  const code = text.charCodeAt(pos);
  if (Number.isNaN(code)) return;
  if (code < 0x80) out.push(fold(code), pos + 1);
  if (code === 0x25) {
    const value = hexValue(text, pos + 1, 2, 16);
    if (value >= 0 && value < 0x80) out.push(fold(value), pos + 3);
  } else if (code === BACKSLASH) {
    const run = backslashRun(text, pos, MAX_ESCAPE_BACKSLASHES + 1);
    for (let k = run; k > 1; k -= 1) out.push(BACKSLASH, pos + k);
    const after = text.charCodeAt(pos + run);
    if (run <= MAX_ESCAPE_BACKSLASHES && (after === 0x2f || after === 0x22))
      out.push(after, pos + run + 1);
    const value = after === 0x75 ? hexValue(text, pos + run + 1, 4, 16) : -1;
    if (run <= MAX_ESCAPE_BACKSLASHES && value >= 0 && value < 0x80)
      out.push(fold(value), pos + run + 5);
  } else if (code === 0x26) {
    const reference = asciiReference(text, pos);
    if (reference) out.push(fold(reference[0]), reference[1]);
  } else if (code === 0x2b) out.push(0x20, pos + 1);
}

/**
 * The end of the first spelling at `pos` of an ASCII character that `accepts` takes (given folded
 * to lower case), or -1: how a key found by its form (src/key-forms.ts) reads on past its prefix.
 */
export function acceptedAsciiEnd(
  text: string,
  pos: number,
  accepts: (folded: number) => boolean,
): number {
  const spelled: number[] = [];
  asciiSpellings(text, pos, spelled);
  for (let i = 0; i < spelled.length; i += 2) if (accepts(spelled[i])) return spelled[i + 1];
  return -1;
}

/**
 * A trie node that splits only when crowded: secrets whose indexed path ends here (`ids`), and
 * either a small bucket of secrets not yet told apart or the next characters. Keys sharing a long
 * prefix (`demo-...`) are told apart as deep as they need, and the nodes stay few.
 */
interface Node {
  ids: number[];
  bucket: Entry[];
  next: Map<number, Node> | null;
}

/** A secret's indexed path: ASCII, lower-cased (a string: 200,000 of them at 10,000 keys). */
interface Entry {
  path: string;
  id: number;
}

/** Secrets a bucket holds before its node splits: the most a place may have to try in full. */
const BUCKET_SIZE = 4;
/** Nodes this shallow always split: a place is tried in full only after two characters agree. */
const SPLIT_DEPTH = 2;

const node = (depth: number): Node => ({
  ids: [],
  bucket: [],
  next: depth < SPLIT_DEPTH ? new Map() : null,
});

function insert(at: Node, depth: number, entry: Entry): void {
  for (;;) {
    if (at.next === null) {
      at.bucket.push(entry);
      if (at.bucket.length > BUCKET_SIZE) split(at, depth);
      return;
    }
    if (depth === entry.path.length) {
      at.ids.push(entry.id);
      return;
    }
    const code = entry.path.charCodeAt(depth);
    let child = at.next.get(code);
    if (!child) at.next.set(code, (child = node(depth + 1)));
    at = child;
    depth += 1;
  }
}

function split(at: Node, depth: number): void {
  const entries = at.bucket;
  at.bucket = [];
  at.next = new Map();
  for (const entry of entries) insert(at, depth, entry);
}

/** Secret ids gathered at one place, each once (a stamp per id instead of a set). */
class Candidates {
  readonly ids: number[] = [];
  private readonly stamps: Uint32Array;
  private stamp = 0;
  constructor(count: number) {
    this.stamps = new Uint32Array(count);
  }
  clear(): void {
    this.ids.length = 0;
    this.stamp += 1;
    if (this.stamp === 0xffffffff) this.stamps.fill((this.stamp = 0));
  }
  add(id: number): void {
    if (this.stamps[id] === this.stamp + 1) return;
    this.stamps[id] = this.stamp + 1;
    this.ids.push(id);
  }
  collect(at: Node): void {
    for (const id of at.ids) this.add(id);
    for (const entry of at.bucket) this.add(entry.id);
  }
}

/**
 * The characters a spelling of some secret can start with (an ASCII character in either case, or
 * an escape's first character), so most places are passed over at one look; null when a secret
 * is tried at every place (one starting beyond ASCII).
 */
function startTable(spelled: Node, whole: Node): Uint8Array | null {
  if ([spelled, whole].some((root) => root.ids.length > 0 || root.bucket.length > 0)) return null;
  const starts = new Uint8Array(0x10000);
  for (const root of [spelled, whole])
    for (const code of root.next!.keys()) {
      starts[code] = 1;
      if (code >= 0x61 && code <= 0x7a) starts[code - 32] = 1;
    }
  for (const escape of '%\\&+') starts[escape.charCodeAt(0)] = 1;
  return starts;
}

/** Finds the first of many secrets at a place; secrets earlier in the list are tried first. */
export interface MultiSecretSearch {
  /** The end of the first secret's first spelling at `pos`, or -1. */
  endAt(text: string, pos: number): number;
}

export function createMultiSecretSearch(secrets: readonly string[]): MultiSecretSearch {
  // Compiled when a place first names the secret: most of 10,000 keys never are.
  const compiled: (Compiled | undefined)[] = [];
  const compiledAt = (id: number) => (compiled[id] ??= compile(secrets[id]));
  const spelled = node(0);
  const whole = node(0);
  secrets.forEach((secret, id) => {
    const ascii = /^[\x00-\x7f]*/.exec(secret)![0];
    insert(spelled, 0, { path: ascii.toLowerCase(), id });
    for (const form of wholeForms(secret)) insert(whole, 0, { path: form.text.toLowerCase(), id });
  });
  const starts = startTable(spelled, whole);
  const candidates = new Candidates(secrets.length);
  const steps: number[] = [];
  const walkSpelled = (text: string, pos: number, at: Node) => {
    candidates.collect(at);
    if (at.next === null) return;
    const first = steps.length;
    asciiSpellings(text, pos, steps);
    const last = steps.length;
    for (let i = first; i < last; i += 2) {
      const child = at.next.get(steps[i]);
      if (child) walkSpelled(text, steps[i + 1], child);
    }
    steps.length = first;
  };
  const walkWhole = (text: string, pos: number) => {
    let at: Node | undefined = whole;
    for (let i = pos; at; i += 1) {
      candidates.collect(at);
      at = at.next?.get(fold(text.charCodeAt(i)));
    }
  };
  return {
    endAt(text, pos) {
      if (starts !== null && starts[text.charCodeAt(pos)] !== 1) return -1;
      candidates.clear();
      walkSpelled(text, pos, spelled);
      walkWhole(text, pos);
      const ordered = candidates.ids;
      if (ordered.length === 0) return -1;
      if (ordered.length > 1) ordered.sort((a, b) => a - b);
      for (const id of ordered) {
        const end = secretEnd(text, pos, compiledAt(id));
        if (end >= 0) return end;
      }
      return -1;
    },
  };
}
