import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  createSecretScrubber,
  holdsSecret,
  redactSecrets,
  redactStringValues,
  redactValue,
  REDACTED,
  valueHoldsSecret,
} from './redaction.js';
import { spellings } from './testing/secret-spellings.js';

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

const KEY = 'demo-Key/with"q\\s +é😀x';
const PLAIN = 'demo-production-key';

describe('createSecretScrubber', () => {
  for (const secret of [KEY, PLAIN])
    for (const [how, form] of Object.entries(spellings(secret)))
      it(`finds ${JSON.stringify(secret)} spelled ${how}, and leaves its neighbours`, () => {
        const scrubber = createSecretScrubber(secret);
        const text = `before[${form}]after`;
        expect(scrubber.foundIn(text)).toBe(true);
        const scrubbed = scrubber.scrubText(text);
        expect(scrubbed).toContain(REDACTED);
        expect(scrubbed.startsWith('before[')).toBe(true);
        expect(scrubbed.endsWith(']after')).toBe(true);
        expect(scrubber.foundIn(scrubbed)).toBe(false);
        // A stream scanner keeps longestForm - 1 bytes between chunks: no form may be longer.
        expect(Buffer.byteLength(form)).toBeLessThanOrEqual(scrubber.longestForm);
      });

  it('finds the secret in bytes, as UTF-8 read through latin1, and leaves every other byte', () => {
    const scrubber = createSecretScrubber(KEY);
    const body = Buffer.concat([
      Buffer.from([0xff, 0x00, 0xc3]),
      Buffer.from(`{"echo":${JSON.stringify(KEY)}}`, 'utf8'),
      Buffer.from([0xfe]),
    ]);
    const { bytes, found } = scrubber.scrubBytes(new Uint8Array(body));
    expect(found).toBe(true);
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0x00, 0xc3]);
    expect(Buffer.from(bytes.subarray(3, -1)).toString('utf8')).toBe(`{"echo":"${REDACTED}"}`);
    expect(bytes.at(-1)).toBe(0xfe);
    const clean = new Uint8Array(Buffer.from('{"echo":"nothing"}'));
    expect(scrubber.scrubBytes(clean)).toEqual({ bytes: clean, found: false });
  });

  it('finds the secret whatever its case: lower-cased as a header name or a media type, upper-cased, mixed', () => {
    for (const secret of [PLAIN, 'AbCdEf0123456789ABCDEF', KEY]) {
      const scrubber = createSecretScrubber(secret);
      const lower = secret.toLowerCase();
      const upper = secret.toUpperCase();
      const mixed = [...secret].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('');
      for (const form of [
        `x-${lower}`,
        `application/${lower}+json`,
        upper,
        mixed,
        encodeURIComponent(lower),
        JSON.stringify(upper).slice(1, -1),
        Buffer.from(lower).toString('hex'),
        Buffer.from(upper).toString('base64'),
      ]) {
        expect(scrubber.foundIn(form), form).toBe(true);
        expect(scrubber.scrubText(form), form).not.toMatch(new RegExp(escape(lower), 'i'));
      }
    }
  });

  it('does not take a part of the secret, or a near miss, for the secret', () => {
    const scrubber = createSecretScrubber(PLAIN);
    for (const text of [
      PLAIN.slice(0, -1),
      PLAIN.replace('key', 'kez'),
      'demo-staging-key',
      '{"products":[]}',
    ])
      expect(scrubber.scrubText(text)).toBe(text);
  });

  it('refuses an empty secret', () => {
    expect(() => createSecretScrubber('')).toThrow(/non-empty/);
  });
});

describe('redactSecrets / holdsSecret', () => {
  it('blanks every secret given, skipping empty ones', () => {
    const text = `a=${PLAIN}&b=${encodeURIComponent('token with space')}`;
    expect(redactSecrets(text, ['', PLAIN, 'token with space'])).toBe(
      `a=${REDACTED}&b=${REDACTED}`,
    );
    expect(holdsSecret(text, ['', 'token with space'])).toBe(true);
    expect(holdsSecret('nothing here', [PLAIN, ''])).toBe(false);
  });
});

describe('any case mix or encoding of a key is redacted (property)', () => {
  /** What a medium may do to a key: change its case, then encode it. */
  const encodings: Record<string, (s: string) => string> = {
    plain: (s) => s,
    percent: encodeURIComponent,
    'percent, lower hex': (s) =>
      encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    json: (s) => JSON.stringify(s).slice(1, -1),
    'json in json': (s) => JSON.stringify(JSON.stringify(s)).slice(1, -1),
    '\\u escapes': (s) =>
      [...Array(s.length).keys()]
        .map((i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`)
        .join(''),
    'html references': (s) => [...s].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(''),
  };
  const wholeEncodings: Record<string, (s: string) => string> = {
    hex: (s) => Buffer.from(s).toString('hex'),
    HEX: (s) => Buffer.from(s).toString('hex').toUpperCase(),
    base64: (s) => Buffer.from(s).toString('base64'),
    base64url: (s) => Buffer.from(s).toString('base64url'),
  };
  // A key found in the marker itself ('*', '**') is still "held" once redacted, whatever redaction does.
  const key = fc
    .oneof(
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 40 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
    )
    .filter((s) => !REDACTED.includes(s));
  const caseMix = (s: string, flips: boolean[]) =>
    [...s].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c.toLowerCase())).join('');

  it('each character in either case, then any per-character encoding', () => {
    fc.assert(
      fc.property(
        key,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(...Object.keys(encodings)),
        (secret, flips, how) => {
          const form = encodings[how](caseMix(secret, flips));
          const scrubbed = redactSecrets(`<${form}>`, [secret]);
          expect(holdsSecret(scrubbed, [secret])).toBe(false);
          expect(scrubbed).toContain(REDACTED);
        },
      ),
    );
  });

  it('the whole key as given, lower- or upper-cased, hex or base64 encoded', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme-ascii', minLength: 8, maxLength: 40 }),
        fc.constantFrom<(s: string) => string>(
          (s) => s,
          (s) => s.toLowerCase(),
          (s) => s.toUpperCase(),
        ),
        fc.constantFrom(...Object.keys(wholeEncodings)),
        (secret, fold, how) => {
          const form = wholeEncodings[how](fold(secret));
          expect(holdsSecret(form, [secret])).toBe(true);
        },
      ),
    );
  });
});

describe('redactValue', () => {
  it("redacts names and values before serialising: a one-letter key leaves the format's own words alone", () => {
    const value = { bounds: { keys: 64 }, headers: { 'x-k': 1, kind: 2 }, note: 'k and K' };
    const redacted = redactValue(value, ['k'], new Set(['bounds', 'keys', 'headers']));
    expect(JSON.parse(JSON.stringify(redacted))).toEqual({
      bounds: { keys: 64 },
      headers: { 'x-***': 1, '***ind': 2 },
      note: '*** and ***',
    });
  });

  it('keeps a name such as __proto__ or constructor as a name', () => {
    const parsed = JSON.parse('{"__proto__":{"a":1},"constructor":"SECRET-VALUE-1"}') as object;
    const redacted = redactValue(parsed, ['secret-value-1']);
    expect(JSON.stringify(redacted)).toBe('{"__proto__":{"a":1},"constructor":"***"}');
  });

  it('returns the value itself when there is no secret to look for', () => {
    const value = { a: 'b' };
    expect(redactValue(value, [''])).toBe(value);
  });
});

describe('valueHoldsSecret', () => {
  it('looks in every name and string value, in any case', () => {
    expect(valueHoldsSecret({ a: [{ [`x-${PLAIN.toUpperCase()}`]: 1 }] }, [PLAIN])).toBe(true);
    expect(valueHoldsSecret({ a: [1, null, `q=${encodeURIComponent(PLAIN)}`] }, [PLAIN])).toBe(
      true,
    );
    expect(valueHoldsSecret({ a: ['demo'], b: 2 }, [PLAIN, ''])).toBe(false);
  });
});

describe('redactStringValues', () => {
  it("blanks a secret in every string value and keeps the writer's own names, even for a one-letter key", () => {
    const report = {
      kind: 'mock',
      keys: ['k'],
      findings: [{ actual: 'x-api-key: K', rule: 'auth' }],
    };
    const redacted = redactStringValues(report, ['k']);
    expect(Object.keys(redacted)).toEqual(['kind', 'keys', 'findings']);
    expect(JSON.stringify(redacted)).not.toMatch(/k(?!ind"|eys")/i);
    expect(redacted.findings[0].rule).toBe('auth');
  });
});
