/**
 * @module lru
 * The mock's bounded caches: `lru-cache` (least recently used first out), bounded by entries and,
 * where a cache holds bodies, by their total bytes. Every per-request cache in the mock is one of
 * these, so none grows without limit. The constructor takes the bounds positionally and
 * `getOrCreate` computes on a miss, the two things every caller needs.
 */
import { LRUCache } from 'lru-cache';

export class Lru<K extends NonNullable<unknown>, V extends NonNullable<unknown>> extends LRUCache<
  K,
  V
> {
  /**
   * At most `maxEntries` entries; with `maxBytes`, also at most that many bytes as `sizeOf` counts
   * them (a value larger than `maxBytes` on its own is never stored).
   */
  constructor(maxEntries: number, maxBytes?: number, sizeOf?: (value: V) => number) {
    if (maxBytes === undefined || sizeOf === undefined) super({ max: maxEntries });
    // lru-cache wants a positive integer size: an empty body still occupies an entry.
    else
      super({
        max: maxEntries,
        maxSize: maxBytes,
        sizeCalculation: (value) => Math.max(1, sizeOf(value)),
      });
  }

  /** The cached value, computing and caching it on a miss. */
  getOrCreate(key: K, create: () => V): V {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = create();
    this.set(key, value);
    return value;
  }
}
