import { describe, expect, it } from 'vitest';
import { createSecretScrubber, holdsSecret, redactSecrets, REDACTED } from './redaction.js';

const KEY = 'demo-Key/with"q\\s +é😀x';
const PLAIN = 'demo-production-key';

/** Every spelling a service, a serializer or a log could give a secret in. */
function spellings(secret: string): Record<string, string> {
  const json = (text: string) => JSON.stringify(text).slice(1, -1);
  const bytes = Buffer.from(secret, 'utf8');
  const base64At = (offset: number, url: boolean) => {
    // The secret inside longer data: its own characters only, the neighbours' cut off.
    const encoded = Buffer.concat([
      Buffer.from('ab'.slice(0, offset)),
      bytes,
      Buffer.from('zz'),
    ]).toString(url ? 'base64url' : 'base64');
    return encoded;
  };
  return {
    plain: secret,
    'percent (encodeURIComponent)': encodeURIComponent(secret),
    'percent, lower-case hex': encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) =>
      m.toLowerCase(),
    ),
    encodeURI: encodeURI(secret),
    'form-encoded': new URLSearchParams({ k: secret }).toString().slice(2),
    'JSON string': json(secret),
    'JSON in JSON': json(json(secret)),
    'JSON in JSON in JSON': json(json(json(secret))),
    'every unit \\u-escaped': [...Array(secret.length).keys()]
      .map((i) => `\\u${secret.charCodeAt(i).toString(16).padStart(4, '0')}`)
      .join(''),
    'escaped slash': secret.replace(/\//g, '\\/'),
    'HTML hex references': [...secret].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(''),
    'HTML decimal references, zero-padded': [...secret]
      .map((c) => `&#${String(c.codePointAt(0)).padStart(5, '0')};`)
      .join(''),
    'forms mixed': [...secret]
      .map((c, i) =>
        i % 3 === 0 ? encodeURIComponent(c) : i % 3 === 1 ? `&#${c.codePointAt(0)};` : c,
      )
      .join(''),
    hex: bytes.toString('hex'),
    'hex, upper case': bytes.toString('hex').toUpperCase(),
    'base64 at offset 0': base64At(0, false),
    'base64 at offset 1': base64At(1, false),
    'base64url at offset 2': base64At(2, true),
  };
}

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

  it('finds a header name carrying the secret whatever its case', () => {
    expect(createSecretScrubber(PLAIN).foundInName(`x-${PLAIN.toLowerCase()}`)).toBe(true);
    expect(createSecretScrubber(PLAIN).foundIn(`x-${PLAIN.toUpperCase()}`)).toBe(false);
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
