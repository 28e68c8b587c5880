/**
 * @module state/stubs/memory
 * The stubs of one process, synchronous (one process, one thread). A shared store keeps one too,
 * to answer from while its server is away.
 */
import { matches, type MatchFacts } from './match.js';
import { MAX_STUBS, StubLimitError, type Stub } from './stubs.js';
import type { StubsStore } from './store.js';

/**
 * The stubs of one process, indexed by operation (a request looks only at its operation's), each
 * with the order it was added in, so the listing stays oldest first.
 */
export class StubBook {
  readonly #byOperation = new Map<string, { order: number; stub: Stub }[]>();
  #size = 0;
  #added = 0;

  add(stub: Stub): Stub {
    if (this.#size >= MAX_STUBS) throw new StubLimitError();
    const operationId = stub.match.operationId;
    const kept = this.#byOperation.get(operationId) ?? [];
    kept.push({ order: ++this.#added, stub: structuredClone(stub) });
    this.#byOperation.set(operationId, kept);
    this.#size += 1;
    return stub;
  }

  remove(id?: string): number {
    if (id === undefined) {
      const removed = this.#size;
      this.#byOperation.clear();
      this.#size = 0;
      return removed;
    }
    for (const [operationId, kept] of this.#byOperation) {
      const i = kept.findIndex((k) => k.stub.id === id);
      if (i < 0) continue;
      this.#drop(operationId, kept, i);
      return 1;
    }
    return 0;
  }

  #drop(operationId: string, kept: { stub: Stub }[], i: number): void {
    kept.splice(i, 1);
    if (kept.length === 0) this.#byOperation.delete(operationId);
    this.#size -= 1;
  }

  /** Copies, oldest first. */
  list(): Stub[] {
    return [...this.#byOperation.values()]
      .flat()
      .sort((a, b) => a.order - b.order)
      .map((k) => structuredClone(k.stub));
  }

  get size(): number {
    return this.#size;
  }

  /** The newest stub of the request's operation that matches, one of its `remaining` used up. */
  take(facts: MatchFacts): Stub | undefined {
    if (facts.operationId === null) return undefined;
    const kept = this.#byOperation.get(facts.operationId);
    if (!kept) return undefined;
    for (let i = kept.length - 1; i >= 0; i--) {
      const { stub } = kept[i];
      if (!matches(stub.match, facts)) continue;
      if (stub.remaining !== undefined) {
        stub.remaining -= 1;
        if (stub.remaining <= 0) this.#drop(facts.operationId, kept, i);
      }
      return structuredClone(stub);
    }
    return undefined;
  }
}

export class MemoryStubs implements StubsStore {
  readonly book = new StubBook();

  mayHaveStubs(): boolean {
    return this.book.size > 0;
  }
  take(request: MatchFacts): Stub | undefined {
    return this.book.take(request);
  }
  async add(stub: Stub) {
    return this.book.add(stub);
  }
  async remove(id?: string) {
    return this.book.remove(id);
  }
  async list() {
    return this.book.list();
  }
}
