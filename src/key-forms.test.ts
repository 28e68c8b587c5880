/**
 * @module key-forms.test
 * A key found by its form is blanked in every spelling a key known by its text is, and no part of
 * it is left: the judge is the scrubber that knows the secret (src/redaction.ts), which must find
 * nothing in what the form's scrubber gave back.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKeyFormScrubber } from './key-forms.js';
import { holdsSecret, REDACTED } from './redaction.js';
import { spellings } from './testing/secret-spellings.js';

const FORM = { prefix: 'wdm-scope-', bodyLength: 43 };
const scrubber = createKeyFormScrubber(FORM);
const mint = () => `wdm-scope-${randomBytes(32).toString('base64url')}`;
/** Every character percent-encoded, as a client that encodes everything would send it. */
const percentAll = (text: string) =>
  [...Buffer.from(text)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');

describe('a key found by its form', () => {
  const key = mint();
  const forms = {
    ...spellings(key),
    'upper case': key.toUpperCase(),
    'lower case': key.toLowerCase(),
    'every character percent-encoded': percentAll(key),
    'percent-encoded twice over in JSON': JSON.stringify(JSON.stringify(percentAll(key))),
  };
  for (const [how, spelled] of Object.entries(forms)) {
    it(`is blanked spelled ${how}, its neighbours kept`, () => {
      const text = `before ${spelled} after`;
      expect(scrubber.foundIn(text)).toBe(true);
      const shown = scrubber.scrubText(text);
      expect(shown).toContain(REDACTED);
      expect(shown.startsWith('before ')).toBe(true);
      expect(shown.endsWith(' after')).toBe(true);
      expect(holdsSecret(shown, [key])).toBe(false);
    });
  }

  it('is blanked in bytes, read through latin1', () => {
    const bytes = new Uint8Array(Buffer.from(`x=${percentAll(key)}&y=\u00e9`, 'utf8'));
    const { bytes: shown, found } = scrubber.scrubBytes(bytes);
    expect(found).toBe(true);
    expect(Buffer.from(shown).toString('utf8')).toBe(`x=${REDACTED}&y=\u00e9`);
  });

  it('is blanked each time it occurs, two keys side by side included', () => {
    const other = mint();
    expect(scrubber.scrubText(`${key}${other} ${encodeURIComponent(key)}`)).toBe(
      `${REDACTED}${REDACTED} ${REDACTED}`,
    );
  });

  it('blanks two keys encoded together, each exactly: nothing of the second is taken for the first', () => {
    const other = mint();
    for (const encoding of ['hex', 'base64', 'base64url'] as const)
      for (const before of ['', 'a', 'ab']) {
        const text = Buffer.from(`${before}${key}${other}zz`).toString(encoding);
        const shown = scrubber.scrubText(text);
        expect(holdsSecret(shown, [key, other]), `${encoding} after "${before}"`).toBe(false);
        expect(shown.split(REDACTED), shown).toHaveLength(3);
      }
  });

  it('is not something shorter, or the prefix alone', () => {
    for (const text of [
      'wdm-scope-',
      `wdm-scope-${'A'.repeat(42)}`,
      `wdm-scope-${'A'.repeat(21)} ${'A'.repeat(21)}`,
      `wdm_scope-${'A'.repeat(43)}`,
      'an ordinary sentence about wdm scopes and their keys, long enough to be searched',
      Buffer.from('wdm-scope-').toString('base64'),
    ]) {
      expect(scrubber.foundIn(text), text).toBe(false);
      expect(scrubber.scrubText(text)).toBe(text);
    }
  });

  it('any key, in any case mix, spelled any way, leaves nothing of itself (property)', () => {
    const spell = fc.constantFrom<(c: string) => string>(
      (c) => c,
      (c) => percentAll(c),
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      (c) => `&#${c.charCodeAt(0)};`,
      (c) => `&#x${c.charCodeAt(0).toString(16)};`,
    );
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.array(fc.tuple(fc.boolean(), spell), { minLength: 53, maxLength: 53 }),
        fc.string({ maxLength: 8 }),
        (bytes, choices, around) => {
          const secret = `wdm-scope-${Buffer.from(bytes).toString('base64url')}`;
          const spelled = [...secret]
            .map((c, i) => choices[i][1](choices[i][0] ? c.toUpperCase() : c.toLowerCase()))
            .join('');
          const shown = scrubber.scrubText(`${around}${spelled}${around}`);
          expect(holdsSecret(shown, [secret])).toBe(false);
        },
      ),
    );
  });
});
