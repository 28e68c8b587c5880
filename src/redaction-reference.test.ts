import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSecretsScrubber } from './redaction.js';

/**
 * The naive reference: every spelling of every secret as one regular expression, alternatives in
 * the module's order (longer secrets first; per secret, character by character before the whole
 * encodings; per code point: itself, percent, JSON, hex and decimal references, latin1 of UTF-8,
 * escaped `/` `"`, a backslash run, `+`). Slow to build and to run, but plainly what the module
 * comment of src/redaction.ts describes.
 */
function referencePattern(secrets: readonly string[]): RegExp | null {
  const live = [...new Set(secrets.filter((s) => s !== ''))].sort((a, b) => b.length - a.length);
  if (live.length === 0) return null;
  const esc = (t: string) => t.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const anyHex = (h: string) => h.replace(/[a-f]/g, (d) => `[${d}${d.toUpperCase()}]`);
  const hex = (n: number, pad = 0) => n.toString(16).padStart(pad, '0');
  const variants = (t: string) => [...new Set([t, t.toLowerCase(), t.toUpperCase()])];
  const codePoint = (ch: string) => {
    const code = ch.codePointAt(0)!;
    const utf8 = [...Buffer.from(ch, 'utf8')];
    const units = Array.from({ length: ch.length }, (_, i) => ch.charCodeAt(i));
    const forms = [
      esc(ch),
      utf8.map((b) => `%${anyHex(hex(b, 2))}`).join(''),
      units.map((u) => `\\\\{1,7}u${anyHex(hex(u, 4))}`).join(''),
      `&#[xX]0{0,${Math.max(0, 7 - hex(code).length)}}${anyHex(hex(code))};`,
      `&#0{0,${Math.max(0, 7 - String(code).length)}}${code};`,
    ];
    if (utf8.length > 1 || code > 0x7e) forms.push(esc(Buffer.from(utf8).toString('latin1')));
    if (ch === '/' || ch === '"') forms.push(`\\\\{1,7}${esc(ch)}`);
    if (ch === '\\') forms.push('\\\\{1,8}');
    if (ch === ' ') forms.push('\\+');
    return `(?:${forms.join('|')})`;
  };
  const character = (ch: string) =>
    `(?:${variants(ch)
      .map((v) => [...v].map(codePoint).join(''))
      .join('|')})`;
  const whole = (secret: string) =>
    variants(secret).flatMap((v) => {
      const bytes = Buffer.from(v, 'utf8');
      const hexText = bytes.toString('hex');
      const out = [hexText];
      for (let offset = 0; offset < 3; offset += 1) {
        const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
        const core = padded
          .toString('base64')
          .slice(offset === 0 ? 0 : 4, Math.floor(padded.length / 3) * 4);
        out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
      }
      return out.filter((f) => f.length >= 8).map((f) => (f === hexText ? anyHex(f) : esc(f)));
    });
  const source = live
    .flatMap((s) => [[...s].map(character).join(''), ...new Set(whole(s))])
    .join('|');
  return new RegExp(source, 'g');
}

/** A few characters, so that secrets share prefixes (more than a trie bucket holds), overlap and contain one another. */
const ALPHABET = ['a', 'B', 'c', '/', '"', '\\', ' ', 'é', 'ß', '😀', '0', '%'];

/** One spelling of a code point, as a serializer or a log might give it. */
function spell(ch: string, how: number): string {
  const code = ch.codePointAt(0)!;
  switch (how % 7) {
    case 1:
      return encodeURIComponent(ch).toLowerCase();
    case 2:
      return JSON.stringify(JSON.stringify(ch)).slice(1, -1);
    case 3:
      return `&#X${code.toString(16).toUpperCase()};`;
    case 4:
      return `&#00${code};`;
    case 5:
      return Buffer.from(ch, 'utf8').toString('latin1');
    case 6:
      return ch === ' ' ? '+' : `\\u${code.toString(16).padStart(4, '0')}`;
    default:
      return ch;
  }
}

const secretArb = fc
  .array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 6 })
  .map((chars) => chars.join(''));

/** A text: pieces of noise and of the secrets, each character in some case and spelling. */
const textArb = (secrets: string[]) =>
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...ALPHABET, '&#', ';', '\\\\', 'x', 'Q'),
        fc
          .tuple(fc.constantFrom(...secrets), fc.array(fc.nat(20), { maxLength: 6 }))
          .map(([secret, choices]) =>
            [...secret]
              .map((ch, i) => {
                const c = choices[i] ?? 0;
                const cased = c % 3 === 1 ? ch.toUpperCase() : c % 3 === 2 ? ch.toLowerCase() : ch;
                return [...cased].map((p) => spell(p, Math.floor(c / 3))).join('');
              })
              .join(''),
          ),
        fc.constantFrom(...secrets).map((s) => Buffer.from(s, 'utf8').toString('hex')),
      ),
      { maxLength: 12 },
    )
    .map((parts) => parts.join(''));

describe('the secret search against a naive reference', () => {
  it('finds and blanks exactly what one regular expression of every spelling does', () => {
    fc.assert(
      fc.property(
        fc
          .array(secretArb, { minLength: 1, maxLength: 24 })
          .chain((secrets) => fc.tuple(fc.constant(secrets), textArb(secrets))),
        ([secrets, text]) => {
          const pattern = referencePattern(secrets)!;
          const scrubber = createSecretsScrubber(secrets);
          pattern.lastIndex = 0;
          expect(scrubber.foundIn(text)).toBe(pattern.test(text));
          expect(scrubber.scrubText(text)).toBe(text.replace(pattern, '***'));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('blanks whole keys drawn like a keys file, among many', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme-ascii', minLength: 8, maxLength: 24 }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.nat(),
        fc.string({ maxLength: 20 }),
        (secrets, pick, noise) => {
          const secret = secrets[pick % secrets.length];
          const text = `${noise}${encodeURIComponent(secret.toUpperCase())}${noise}${Buffer.from(secret).toString('base64')}`;
          const pattern = referencePattern(secrets)!;
          expect(createSecretsScrubber(secrets).scrubText(text)).toBe(text.replace(pattern, '***'));
        },
      ),
      { numRuns: 200 },
    );
  });
});
