/**
 * @module key-forms
 * Finds a key by its form rather than its secret: a fixed prefix, then a body of base64url
 * characters (a scope's key is `wdm-scope-` and 43 of them; no app holds its secret, only a
 * digest). It sees the key in every spelling src/redaction.ts lists for a known secret:
 * - the prefix, in any case, each character as itself or percent-, JSON- or HTML-escaped, then the
 *   body read on the same way, character by character;
 * - the whole key hex-encoded, or base64/base64url-encoded at any alignment: the prefix's encoding
 *   (src/secret-search.ts finds both kinds), then the rest of the encoding, long enough to hold
 *   the body.
 * The characters blanked are exactly the key's: every one that carries a bit of it, and no more.
 */
import { MAX_FORM_LENGTH, scrubberOver, type SecretScrubber } from './redaction.js';
import {
  acceptedAsciiEnd,
  caseVariants,
  createMultiSecretSearch,
  encodings,
} from './secret-search.js';
import { literalPattern } from './contract/literal-pattern.js';

export interface KeyForm {
  /** What every such key starts with (ASCII). */
  prefix: string;
  /** How many base64url characters follow it. */
  bodyLength: number;
}

const isBase64UrlFolded = (code: number) =>
  (code >= 0x61 && code <= 0x7a) ||
  (code >= 0x30 && code <= 0x39) ||
  code === 0x2d ||
  code === 0x5f;
const HEX_DIGIT = /^[0-9a-fA-F]*$/;
const BASE64_CHARACTERS = /^[A-Za-z0-9+/_-]*$/;

/** How a key goes on after its prefix's encoding: so many more characters, of this kind. */
interface EncodedRest {
  length: number;
  characters: RegExp;
}

/**
 * Each encoding of the prefix (as src/secret-search.ts finds it: hex, base64 and base64url at each
 * alignment, of the prefix as given, lower- and upper-cased), with how many characters of the
 * same encoding the rest of the key takes: every character that carries any of its bits, the
 * last one it shares with what follows included, and nothing further (the next key's prefix).
 */
function encodedRests(form: KeyForm): Map<string, EncodedRest> {
  const rests = new Map<string, EncodedRest>();
  const prefixBytes = Buffer.byteLength(form.prefix);
  const keyBytes = prefixBytes + form.bodyLength;
  for (const variant of caseVariants(form.prefix)) {
    for (const { text, base64Offset: offset } of encodings(variant)) {
      if (offset === undefined) {
        rests.set(text, { length: 2 * form.bodyLength, characters: HEX_DIGIT });
        continue;
      }
      const coreEnd = Math.floor((offset + prefixBytes) / 3) * 4;
      const keyEnd = Math.ceil(((offset + keyBytes) * 4) / 3);
      rests.set(text, { length: keyEnd - coreEnd, characters: BASE64_CHARACTERS });
    }
  }
  return rests;
}

/** The end of `count` body characters from `pos`, each in any spelling, or -1. */
function spelledBodyEnd(text: string, pos: number, count: number): number {
  let end = pos;
  for (let i = 0; i < count && end >= 0; i += 1)
    end = acceptedAsciiEnd(text, end, isBase64UrlFolded);
  return end;
}

/**
 * A quick test no text holding the key fails: the prefix as itself (any case), an escape that a
 * spelled character starts with (`%XX`, a backslash, `&#`), or one of the prefix's encodings.
 * Most texts (a plain path, a header, a JSON body) fail it and are not searched place by place.
 */
function mayHoldTest(form: KeyForm, rests: Map<string, EncodedRest>): (text: string) => boolean {
  const forms = [form.prefix, ...rests.keys()].map(literalPattern);
  const test = new RegExp(`${forms.join('|')}|%[0-9a-f]{2}|\\\\|&#`, 'i');
  return (text) => test.test(text);
}

export function createKeyFormScrubber(form: KeyForm): SecretScrubber {
  const prefix = createMultiSecretSearch([form.prefix]);
  const rests = encodedRests(form);
  const shortest = form.prefix.length + form.bodyLength;
  return scrubberOver({
    mayHold: mayHoldTest(form, rests),
    endAt(text, pos) {
      const end = prefix.endAt(text, pos);
      if (end < 0) return -1;
      const spelled = text.slice(pos, end);
      const rest = rests.get(spelled) ?? rests.get(spelled.toLowerCase());
      if (!rest) return spelledBodyEnd(text, end, form.bodyLength);
      const after = text.slice(end, end + rest.length);
      return after.length === rest.length && rest.characters.test(after) ? end + rest.length : -1;
    },
    shortestForm: shortest,
    longestForm: MAX_FORM_LENGTH * shortest,
  });
}
