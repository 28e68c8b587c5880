/**
 * @module state/journal/redis
 * The journal shared by a fleet in one Redis: each entry rides in its turn's call (shared/turn.ts),
 * each line read back is read again (shared/entry-readers.ts). Redis away: this instance's own
 * journal keeps and answers.
 */
import { readJournalEntry } from '../shared/entry-readers.js';
import { wholeNumber, type RedisLink } from '../shared/fail-over.js';
import type { Turn } from '../shared/turn.js';
import type { MemoryJournal } from './memory.js';
import { journalLine, type JournalEntry, type JournalLine, type JournalStore } from './store.js';

export class RedisJournal implements JournalStore {
  readonly #link: RedisLink;
  readonly #turns: { open(): Turn<unknown> };
  readonly #local: MemoryJournal;

  constructor(link: RedisLink, turns: { open(): Turn<unknown> }, local: MemoryJournal) {
    this.#link = link;
    this.#turns = turns;
    this.#local = local;
  }

  get capacity(): number {
    return this.#local.capacity;
  }

  record(entry: JournalEntry): void {
    if (!this.#link.up) return this.#local.record(entry);
    this.#turns.open().record(entry);
  }

  /** The newest `n` journal lines; a line that is not one the journal writes is skipped and counted. */
  async last(n: number): Promise<JournalLine[]> {
    const link = this.#link;
    return link.shared(
      async () => {
        const out: JournalLine[] = [];
        for (const raw of await link.redis.lrange(link.keys.journal, 0, n - 1)) {
          const entry = link.read(raw, readJournalEntry, 'a journal entry');
          if (entry) out.push(journalLine(entry));
        }
        return out;
      },
      () => this.#local.last(n),
      [[link.keys.journal, 'list']],
    );
  }

  async dropped(): Promise<number> {
    const link = this.#link;
    return link.shared(
      async () => wholeNumber(Number((await link.redis.get(link.keys.journalDropped)) ?? 0)),
      () => this.#local.dropped(),
      [[link.keys.journalDropped, 'integer']],
    );
  }

  async clear(): Promise<void> {
    const link = this.#link;
    await this.#local.clear();
    await link.shared(
      async () => void (await link.redis.del(link.keys.journal, link.keys.journalDropped)),
      () => undefined,
    );
  }
}
