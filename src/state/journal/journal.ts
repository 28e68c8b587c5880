/**
 * @module state/journal/journal
 * The request journal of one process: the last `capacity` API requests, oldest dropped first,
 * and how many were dropped since it was last cleared (a verdict over the journal must know what
 * it no longer sees). The memory store keeps one; a shared store keeps one too, to answer from
 * while its server is away.
 */
import { journalLine, type JournalEntry, type JournalLine } from './store.js';

/** Entries kept unless told otherwise (`--journal-size`, `journal: { size }`). */
export const DEFAULT_JOURNAL_SIZE = 500;
/** Bounds of the journal size a user may ask for: every entry holds up to a 16 KB body. */
export const MIN_JOURNAL_SIZE = 1;
export const MAX_JOURNAL_SIZE = 100_000;
export const JOURNAL_SIZE_RANGE = { min: MIN_JOURNAL_SIZE, max: MAX_JOURNAL_SIZE } as const;

/** The problem with a journal size a user gave (`journal.size`), or undefined when it is one. */
export function journalSizeProblem(size: unknown): string | undefined {
  if (
    Number.isInteger(size) &&
    (size as number) >= MIN_JOURNAL_SIZE &&
    (size as number) <= MAX_JOURNAL_SIZE
  )
    return undefined;
  return `must be an integer from ${MIN_JOURNAL_SIZE} to ${MAX_JOURNAL_SIZE} (got ${String(JSON.stringify(size) ?? size).slice(0, 40)})`;
}

/** What a journal holds now: how many entries it keeps, how many earlier ones it no longer keeps. */
export interface JournalWindow {
  kept: number;
  dropped: number;
  /** The most it keeps. */
  size: number;
}

/** `500 kept; 700 earlier requests no longer kept`, or undefined when nothing was dropped. */
export function windowNote(window: JournalWindow): string | undefined {
  if (window.dropped <= 0) return undefined;
  return `${window.kept} kept; ${window.dropped} earlier request${window.dropped === 1 ? '' : 's'} no longer kept (journal size ${window.size})`;
}

/** The last `capacity` requests, oldest dropped first. */
export class Journal {
  readonly #entries: JournalEntry[] = [];
  #next = 0;
  #epoch = 0;
  constructor(readonly capacity = DEFAULT_JOURNAL_SIZE) {
    const problem = journalSizeProblem(capacity);
    if (problem) throw new RangeError(`journal size ${problem}`);
  }
  add(entry: JournalEntry): void {
    if (this.#entries.length < this.capacity) this.#entries.push(entry);
    else this.#entries[this.#next % this.capacity] = entry;
    this.#next += 1;
  }
  /** Entries added since the last clear that are no longer kept. */
  get dropped(): number {
    return Math.max(0, this.#next - this.capacity);
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
  /**
   * Counts the clears: a request notes it when it begins and is journaled only if no clear came
   * since, so a reset is a barrier (a request in flight during it is never journaled after it).
   */
  get epoch(): number {
    return this.#epoch;
  }
  clear(): void {
    this.#epoch += 1;
    this.#entries.length = 0;
    this.#next = 0;
  }
}
