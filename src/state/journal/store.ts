/**
 * @module state/journal/store
 * The request journal behind one small interface: this process's (memory.ts) or the fleet's
 * (redis.ts). Recording never waits and never fails the request.
 */
import type { JournalFault, JournalRecord } from '../../api/types.js';

export type { JournalFault };

/** The members a journal line has on every request (the rest is what it keeps beyond them). */
type LineMembers =
  'id' | 'at' | 'method' | 'path' | 'status' | 'key' | 'operation' | 'ms' | 'instance';

/** What the journal keeps of an API request beyond its line; members absent when empty. */
export type JournalRequest = Omit<JournalRecord, LineMembers>;

/** One request as the journal keeps it: the public `JournalRecord` with `atMs` (epoch ms) for `at`, formatted only when the journal is read (a Date per request costs throughput). */
export type JournalEntry = Omit<JournalRecord, 'at'> & { atMs: number };

/** A journal entry as read: `at` as an ISO date. */
export type JournalLine = Omit<JournalEntry, 'atMs'> & { at: string };

export interface JournalStore {
  /** Adds a request to the journal; never waits and never fails the request. */
  record(entry: JournalEntry): void;
  /** The newest `n` entries, newest first. */
  last(n: number): Promise<JournalLine[]>;
  clear(): Promise<void>;
  /** Most entries kept. */
  readonly capacity: number;
  /** How many entries recorded since the journal was last cleared it no longer keeps. */
  dropped(): Promise<number>;
}

/** A journal entry with `at` as an ISO date, as the admin endpoint lists it. */
export function journalLine({ atMs, ...entry }: JournalEntry): JournalLine {
  return { at: new Date(atMs).toISOString(), ...entry };
}
