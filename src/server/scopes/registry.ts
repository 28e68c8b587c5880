/**
 * @module scopes/registry
 * Which scopes exist: their key's digest, their id, what the key is like, when each was last used.
 * A scope unused for its TTL (by the mock's clock, so tests need no wall-clock wait) is gone at
 * the next look; at most `max` live at once. This process's registry is here; a fleet's is in
 * Redis (src/state/scopes/redis.ts), behind the same interface.
 */
import type { KeyPurpose } from '../../api/types.js';
import { ScopeLimitError } from './limits.js';
import { sameDigest, scopeKeyDigest } from './scope-key.js';

/** One scope as the registry knows it (never its secret; the digest only). */
export interface ScopeEntry {
  readonly id: string;
  readonly purpose: KeyPurpose;
  /** SHA-256 of the secret. */
  readonly digest: Buffer;
}

/** A live scope as a listing shows it: its id, purpose and when it was last used (the mock's clock, ms). */
export interface ScopeListed {
  readonly id: string;
  readonly purpose: string;
  readonly usedAt: number;
}

export interface ScopeRegistry {
  readonly ttlSeconds: number;
  readonly max: number;
  /** Registers a scope; a ScopeLimitError when `max` live already. */
  add(entry: ScopeEntry): Promise<void>;
  /** The live scope of this secret (its idle time starts again), or undefined. */
  byKey(secret: string): Promise<ScopeEntry | undefined>;
  /** The live scope of this id (its idle time starts again), or undefined. */
  byId(id: string): Promise<ScopeEntry | undefined>;
  /** Ends a scope; false when there was none. */
  remove(id: string): Promise<boolean>;
  /** The live scopes, most recently used first; listing one does not count as its use. */
  list(): Promise<ScopeListed[]>;
  /** Called with the id of each scope that ends (closed or expired), to free what was built for it. */
  onEnd(listener: (id: string) => Promise<void> | void): void;
}

interface Held extends ScopeEntry {
  usedAt: number;
}

export class MemoryScopeRegistry implements ScopeRegistry {
  readonly #byId = new Map<string, Held>();
  readonly #byDigest = new Map<string, Held>();
  readonly #listeners: ((id: string) => Promise<void> | void)[] = [];
  #sweptAt = -Infinity;

  constructor(
    readonly ttlSeconds: number,
    readonly max: number,
    private readonly now: () => number,
  ) {}

  async add(entry: ScopeEntry): Promise<void> {
    await this.#sweep();
    if (this.#byId.size >= this.max) throw new ScopeLimitError(this.max, this.ttlSeconds);
    const held = { ...entry, usedAt: this.now() };
    this.#byId.set(entry.id, held);
    this.#byDigest.set(entry.digest.toString('latin1'), held);
  }

  async byKey(secret: string): Promise<ScopeEntry | undefined> {
    const presented = scopeKeyDigest(secret);
    const held = this.#byDigest.get(presented.toString('latin1'));
    return held && sameDigest(held.digest, presented) ? this.#touch(held) : undefined;
  }

  async byId(id: string): Promise<ScopeEntry | undefined> {
    const held = this.#byId.get(id);
    return held && this.#touch(held);
  }

  async remove(id: string): Promise<boolean> {
    const held = this.#byId.get(id);
    if (!held) return false;
    this.#byId.delete(id);
    this.#byDigest.delete(held.digest.toString('latin1'));
    for (const listener of this.#listeners) await listener(id);
    return true;
  }

  async list(): Promise<ScopeListed[]> {
    await this.#sweep();
    return [...this.#byId.values()]
      .map(({ id, purpose, usedAt }) => ({ id, purpose, usedAt }))
      .sort((a, b) => b.usedAt - a.usedAt);
  }

  onEnd(listener: (id: string) => Promise<void> | void): void {
    this.#listeners.push(listener);
  }

  /** The scope, its idle time started again; or undefined (and ended) when its TTL has passed. */
  async #touch(held: Held): Promise<ScopeEntry | undefined> {
    const now = this.now();
    if (this.#expired(held, now)) {
      await this.remove(held.id);
      return undefined;
    }
    held.usedAt = now;
    // Scopes nobody looks at again are ended too, at most once a second.
    if (now - this.#sweptAt >= 1000) await this.#sweep();
    return held;
  }

  #expired(held: Held, now: number): boolean {
    return now - held.usedAt >= this.ttlSeconds * 1000;
  }

  async #sweep(): Promise<void> {
    const now = this.now();
    this.#sweptAt = now;
    for (const held of [...this.#byId.values()])
      if (this.#expired(held, now)) await this.remove(held.id);
  }
}
