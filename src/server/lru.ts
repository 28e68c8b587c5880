/**
 * @module lru
 * A small least-recently-used map with a bound on entries and, optionally, on total weight
 * (bytes of cached bodies). Every per-request cache in the mock is one of these, so none grows
 * without limit.
 */
export class Lru<K, V> {
  readonly #map = new Map<K, { value: V; weight: number }>();
  #weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
    private readonly weigh: (value: V) => number = () => 0,
  ) {}

  get(key: K): V | undefined {
    const hit = this.#map.get(key);
    if (!hit) return undefined;
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.#map.delete(key);
    this.#map.set(key, hit);
    return hit.value;
  }

  set(key: K, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.maxWeight) return;
    const old = this.#map.get(key);
    if (old) {
      this.#weight -= old.weight;
      this.#map.delete(key);
    }
    this.#map.set(key, { value, weight });
    this.#weight += weight;
    while (this.#map.size > this.maxEntries || this.#weight > this.maxWeight) {
      const [oldestKey, oldest] = this.#map.entries().next().value as [K, { value: V; weight: number }];
      this.#map.delete(oldestKey);
      this.#weight -= oldest.weight;
    }
  }

  /** The cached value, computing and caching it on a miss. */
  getOrCreate(key: K, create: () => V): V {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const value = create();
    this.set(key, value);
    return value;
  }

  get size(): number {
    return this.#map.size;
  }

  clear(): void {
    this.#map.clear();
    this.#weight = 0;
  }
}
