/**
 * @module middleware/secret-blanking.test
 * The journal's blanking keeps what it worked out once, and the caches never let a secret through:
 * a text with a secret is blanked every time it comes, a value object is taken from the cache
 * only when frozen (an unfrozen one may have changed), and what is shared is frozen.
 */
import { describe, expect, it } from 'vitest';
import { secretBlanker } from './secret-blanking.js';

const SECRET = 'sk-0123456789abcdef';
function counting() {
  const asked: string[] = [];
  const isSecret = (value: string) => {
    asked.push(value);
    return value === SECRET;
  };
  return { asked, blank: secretBlanker(isSecret) };
}

describe('secretBlanker', () => {
  it('checks a clean text once, and blanks a text with a secret every time it comes', () => {
    const { asked, blank } = counting();
    expect(blank.text('application/json')).toBe('application/json');
    expect(blank.text('application/json')).toBe('application/json');
    expect(asked.filter((v) => v === 'application/json')).toHaveLength(1);
    expect(blank.text(`Bearer ${SECRET}`)).toBe('Bearer ***');
    expect(blank.text(`Bearer ${SECRET}`)).toBe('Bearer ***');
    expect(asked.filter((v) => v === SECRET)).toHaveLength(2);
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
    open.id = SECRET;
    expect(blank.value(open)).toEqual({ id: '***' });
  });

  it('parses a JSON body once per text, blanked and frozen; not JSON is undefined', () => {
    const { blank } = counting();
    const text = JSON.stringify({ note: SECRET, list: [SECRET, 'a'] });
    const first = blank.jsonBody(text);
    expect(first).toEqual({ note: '***', list: ['***', 'a'] });
    expect(blank.jsonBody(text)).toBe(first);
    expect(Object.isFrozen((first as { list: unknown }).list)).toBe(true);
    expect(blank.jsonBody('{not json')).toBeUndefined();
    expect(blank.jsonBody('null')).toBeNull();
  });

  it('without a secret check, keeps values as they are', () => {
    const blank = secretBlanker(undefined);
    const value = { id: SECRET };
    expect(blank.value(value)).toBe(value);
    expect(blank.text(SECRET)).toBe(SECRET);
    expect(blank.jsonBody(JSON.stringify(value))).toEqual(value);
  });
});
