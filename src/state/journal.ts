/**
 * @module state/journal
 * The request journal of one process: the last `capacity` API requests, oldest dropped first. The
 * memory store keeps one; a shared store keeps one too, to answer from while its server is away.
 */
import { journalLine, type JournalEntry, type JournalLine } from './store.js';

/** The last `capacity` requests, oldest dropped first. */
export class Journal {
  readonly #entries: JournalEntry[] = [];
  #next = 0;
  constructor(readonly capacity = 500) {}
  add(entry: JournalEntry): void {
    if (this.#entries.length < this.capacity) this.#entries.push(entry);
    else this.#entries[this.#next % this.capacity] = entry;
    this.#next += 1;
  }
  /** Newest first, with `at` as an ISO date. */
  last(n = this.capacity): JournalLine[] {
    const ordered =
      this.#entries.length < this.capacity
        ? [...this.#entries]
        : [
            ...this.#entries.slice(this.#next % this.capacity),
            ...this.#entries.slice(0, this.#next % this.capacity),
          ];
    return ordered.reverse().slice(0, n).map(journalLine);
  }
  clear(): void {
    this.#entries.length = 0;
    this.#next = 0;
  }
}
