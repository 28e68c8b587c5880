/**
 * @module testing/secret-spellings
 * Every spelling a service, a serializer or a log could give a secret in, by name: what the
 * redaction tests feed the scrubbers, for a secret known by its text (src/redaction.ts) and for a
 * key known by its form (src/key-forms.ts).
 */
export function spellings(secret: string): Record<string, string> {
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
