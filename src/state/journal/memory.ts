/**
 * @module state/journal/memory
 * The journal of one process: the bounded journal, synchronous underneath.
 */
import type { Journal } from './journal.js';
import type { JournalEntry, JournalStore } from './store.js';

export class MemoryJournal implements JournalStore {
  constructor(readonly journal: Journal) {}

  get capacity(): number {
    return this.journal.capacity;
  }
  record(entry: JournalEntry): void {
    this.journal.add(entry);
  }
  async last(n: number) {
    return this.journal.last(n);
  }
  async dropped() {
    return this.journal.dropped;
  }
  async clear() {
    this.journal.clear();
  }
}
