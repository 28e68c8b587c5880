/**
 * @module recordings/personal-data.test
 * The personal-data list both ways: the names and values issue 24 found in recordings are caught,
 * and product data of the kind the API serves (part numbers, dates, URLs, prices) is not.
 */
import { describe, expect, it } from 'vitest';
import { findPersonalData, looksPersonal, personalName, personalValue } from './personal-data.js';
import { FOUND_IN_RECORDINGS } from './testdata/personal-names.js';

const KEY = 'demo-live-key/7f';

describe('field names', () => {
  it.each([
    ...FOUND_IN_RECORDINGS,
    'X-API-KEY',
    'IPAddress',
    'contactEmail',
    'e-mail',
    'homephone',
    'sessionId',
    'accessTokens',
    'dateOfBirth',
    'ips',
  ])('%s looks personal', (name) => {
    expect(personalName(name)).toMatch(/suggests personal data or a credential/);
  });

  it.each([
    'productId',
    'title',
    'shipDate',
    'hotel',
    'partNumber',
    'description',
    'relatedDocuments',
    'pinCount',
    'rohsCompliant',
    'telemetryRate',
    'mailbox' /* a word of its own, not "mail" */,
  ])('%s does not', (name) => {
    expect(personalName(name)).toBeUndefined();
  });
});

describe('values', () => {
  it.each([
    ['an e-mail address', 'write to jane.doe+qa@example.co.uk for samples'],
    ['a card number', '4111 1111 1111 1111'],
    ['a card number', 'card 5500-0000-0000-0004 on file'],
    ['a card number', 'amex 3782 822463 10005'],
    ['a card number', '4111111111111111'],
    ['a card number', 4111111111111111],
    ['an IBAN', 'DE89 3704 0044 0532 0130 00'],
    ['an IBAN', 'pay to GB82WEST12345698765432 now'],
    ['a bearer credential', 'Bearer abcdef0123456789'],
    ['a basic credential', 'basic dXNlcjpwYXNzd29yZA=='],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig'],
    ['the key', KEY],
    ['the key URL-encoded', `q=${encodeURIComponent(KEY)}`],
    ['the key in hex', Buffer.from(KEY).toString('hex')],
    ['the key in base64', Buffer.from(`x${KEY}y`).toString('base64')],
    ['the key in base64url', Buffer.from(`ab${KEY}`).toString('base64url')],
  ])('%s is caught (%s)', (_kind, value) => {
    expect(personalValue(value, { secrets: [KEY] })).toMatch(/^its value (is|holds)/);
  });

  it.each([
    'LM358#PBF',
    'R7FA6M5BH3CFC',
    'https://www.example.com/products/P1',
    '2026-01-01T00:00:00Z',
    '4111 1111 1111 1112',
    '1234567890123',
    'DE89 3704 0044 0532 0130 01',
    /* a UUID of the mock's data whose digits "0-4803-9538-880698314" pass the Luhn check */
    '53241fe1-f7e0-4803-9538-880698314f76',
    'part R5F1-0000-0000-0004 rev 2',
    'Datasheet Rev. 1.20, 3.3 V, 120 MHz',
    12.5,
    1234567890123,
  ])('%s is not', (value) => {
    expect(personalValue(value, { secrets: [KEY] })).toBeUndefined();
  });

  it('never puts the value in the reason', () => {
    const reason = looksPersonal('note', 'jane.doe@example.com')!;
    expect(reason).toBeDefined();
    expect(reason).not.toContain('jane');
  });
});

describe('findPersonalData', () => {
  const body = {
    data: [
      { productId: 'P1', extra: { firstName: 'Jane' } },
      { productId: 'P2', note: 'x' },
    ],
    contact: 'sales@example.com',
  };

  it('finds a value anywhere, by pointer', () => {
    expect(findPersonalData({ data: [body.data[1], { a: { 'b/c': 'x@y.io' } }] })).toEqual({
      pointer: '/data/1/a/b~1c',
      reason: 'its value is an e-mail address',
    });
  });

  it('judges names only where asked (undeclared fields and below)', () => {
    const judged = findPersonalData(
      { data: body.data },
      { judgeName: (p) => p.startsWith('/data/0/extra') },
    );
    expect(judged?.pointer).toBe('/data/0/extra/firstName');
    expect(findPersonalData({ data: body.data }, { judgeName: () => false })).toBeUndefined();
  });
});
