/**
 * @module journal/secret-blanking.test
 * The journal's blanking finds a secret the one way (src/redaction.ts): in any case or encoding,
 * inside a longer string, in a member's name; it keeps what it worked out once, and the caches
 * never let a secret through: a text with a secret is blanked every time it comes, a value object
 * is taken from the cache only when frozen (an unfrozen one may have changed), and what is shared
 * is frozen. No walk reaches a stack limit.
 */
import { describe, expect, it } from 'vitest';
import { createSecretsScrubber, type SecretScrubber } from '../../redaction.js';
import { MAX_JOURNAL_BODY_DEPTH, nestsDeeperThan, secretBlanker } from './secret-blanking.js';

const SECRET = 'sk-0123456789abcdef';
function counting() {
  const scrubber = createSecretsScrubber([SECRET]);
  const asked: string[] = [];
  const spy: SecretScrubber = {
    ...scrubber,
    scrubText: (text) => {
      asked.push(text);
      return scrubber.scrubText(text);
    },
  };
  return { asked, blank: secretBlanker(spy) };
}

describe('secretBlanker', () => {
  it('searches a clean text once, and blanks a text with a secret every time it comes', () => {
    const { asked, blank } = counting();
    expect(blank.text('application/json')).toBe('application/json');
    expect(blank.text('application/json')).toBe('application/json');
    expect(asked.filter((v) => v === 'application/json')).toHaveLength(1);
    expect(blank.text(`Bearer ${SECRET}`)).toBe('Bearer ***');
    expect(blank.text(`Bearer ${SECRET}`)).toBe('Bearer ***');
    expect(asked.filter((v) => v === `Bearer ${SECRET}`)).toHaveLength(2);
  });

  it('finds the secret inside a value, in upper case, hex and base64', () => {
    const { blank } = counting();
    expect(blank.text(`x/${SECRET}`)).toBe('x/***');
    expect(blank.text(SECRET.toUpperCase())).toBe('***');
    expect(blank.text(`h=${Buffer.from(SECRET).toString('hex')}`)).toBe('h=***');
    expect(blank.text(`b=${Buffer.from(SECRET).toString('base64')}`)).not.toContain(
      Buffer.from(SECRET).toString('base64').slice(0, 20),
    );
    expect(blank.text(encodeURIComponent(`/${SECRET}`).toLowerCase())).toBe('%2f***');
  });

  it('keeps a frozen value blanked once, frozen; an unfrozen one is blanked as it is now', () => {
    const { blank } = counting();
    const frozen = Object.freeze({ id: SECRET, n: 1 });
    const first = blank.value(frozen);
    expect(first).toEqual({ id: '***', n: 1 });
    expect(blank.value(frozen)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    const open: Record<string, unknown> = { id: 'x' };
    expect(blank.value(open)).toEqual({ id: 'x' });
    open.id = `pre-${SECRET}`;
    expect(blank.value(open)).toEqual({ id: 'pre-***' });
  });

  it('blanks member names as well as values in a JSON body, parsed once per text and frozen', () => {
    const { blank } = counting();
    const text = JSON.stringify({ note: SECRET, list: [SECRET, 'a'], [SECRET]: 1 });
    const first = blank.jsonBody(text);
    expect(first).toEqual({ note: '***', list: ['***', 'a'], '***': 1 });
    expect(blank.jsonBody(text)).toBe(first);
    expect(Object.isFrozen((first as { list: unknown }).list)).toBe(true);
    expect(blank.jsonBody('{not json')).toBeUndefined();
    expect(blank.jsonBody('null')).toBeNull();
    // JSON escapes spell the secret too.
    expect(blank.jsonBody(`{"k":"\\u0073k-0123456789abcdef"}`)).toEqual({ k: '***' });
  });

  it('keeps a body nested deeper than its bound as text, without reaching a stack limit', () => {
    const { blank } = counting();
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    expect(blank.jsonBody(deep)).toBeUndefined();
    expect(blank.text(deep)).toBe(deep);
    const justDeepEnough = `${'['.repeat(MAX_JOURNAL_BODY_DEPTH)}${']'.repeat(MAX_JOURNAL_BODY_DEPTH)}`;
    expect(blank.jsonBody(justDeepEnough)).toBeDefined();
    expect(nestsDeeperThan(JSON.parse(deep), MAX_JOURNAL_BODY_DEPTH)).toBe(true);
    // The value walk is iterative too: 100,000 levels.
    let nested: unknown = SECRET;
    for (let i = 0; i < 100_000; i += 1) nested = [nested];
    expect(() => blank.value(nested)).not.toThrow();
  });

  it('without a scrubber, keeps values as they are', () => {
    const blank = secretBlanker(undefined);
    const value = { id: SECRET };
    expect(blank.value(value)).toBe(value);
    expect(blank.text(SECRET)).toBe(SECRET);
    expect(blank.jsonBody(JSON.stringify(value))).toEqual(value);
  });
});
