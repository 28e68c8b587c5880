/**
 * @module server/lru.test
 * The bounds every per-request cache relies on: entries, total bytes, oldest out first, and a
 * value larger than the byte bound never stored.
 */
import { describe, expect, it } from 'vitest';
import { Lru } from './lru.js';

describe('Lru', () => {
  it('keeps at most maxEntries, dropping the least recently used', () => {
    const cache = new Lru<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect([cache.size, cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([
      2,
      1,
      undefined,
      3,
    ]);
  });

  it('keeps the total bytes within maxBytes, and never stores a value larger than that', () => {
    const cache = new Lru<string, string>(100, 10, (text) => text.length);
    cache.set('a', 'xxxx');
    cache.set('b', 'yyyy');
    cache.set('c', 'zzzz');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.calculatedSize).toBeLessThanOrEqual(10);
    cache.set('huge', 'h'.repeat(11));
    expect(cache.get('huge')).toBeUndefined();
    cache.set('empty', '');
    expect(cache.get('empty')).toBe('');
  });

  it('getOrCreate computes on a miss only', () => {
    const cache = new Lru<string, number>(10);
    let calls = 0;
    const make = () => ++calls;
    expect([cache.getOrCreate('k', make), cache.getOrCreate('k', make), calls]).toEqual([1, 1, 1]);
  });
});
