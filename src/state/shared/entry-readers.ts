/**
 * @module state/shared/entry-readers
 * Redis is input too: every entry a shared store reads back (a stub, an armed fault, a journal
 * line) is read again before it is used, by the same reader the admin API reads a request with.
 * Those readers know the contract and the keys (src/server/admin/stored-entries.ts), which this layer
 * may not import, so the server hands them to the store once it has built them. An entry a reader
 * refuses is skipped and counted as repaired spoiled data: never an outage, a fallback or a 500.
 */
import type { KeptFault } from '../faults/store.js';
import type { JournalEntry } from '../journal/store.js';
import type { Stub } from '../stubs/stubs.js';

/**
 * The admin API's readers, which a shared store reads its entries back with (Redis is input too:
 * src/server/admin/stored-entries.ts).
 */
export interface EntryReaders {
  /** A kept stub read as `POST /__mock/stubs` reads one (its answer judged again), or undefined. */
  stub(entry: unknown): Promise<Stub | undefined>;
  /** A kept fault read as `POST /__mock/faults` reads one, or undefined. */
  fault(entry: unknown): KeptFault | undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Until the server hands its readers over: only the shape this layer relies on (no request is served before). */
export const SHAPE_READERS: EntryReaders = {
  async stub(entry) {
    return isObject(entry) && typeof entry.id === 'string' && isObject(entry.match)
      ? (entry as unknown as Stub)
      : undefined;
  },
  fault(entry) {
    return isObject(entry) && typeof entry.id === 'string' && isObject(entry.action)
      ? (entry as unknown as KeptFault)
      : undefined;
  },
};

/** Latest date a `Date` can hold (ms): a line past it would fail to print ("Invalid time value"). */
const MAX_DATE_MS = 8.64e15;
const optional: Record<string, (v: unknown) => boolean> = {
  keyPurpose: (v) => typeof v === 'string',
  params: isObject,
  query: isObject,
  headers: (v) => isObject(v) && Object.values(v).every((s) => typeof s === 'string'),
  body: () => true,
  bodyText: (v) => typeof v === 'string',
  bodyCut: (v) => typeof v === 'boolean',
  stub: (v) => typeof v === 'string',
  unchecked: (v) => typeof v === 'boolean',
  stubSkipped: (v) => typeof v === 'string',
};
const required: Record<string, (v: unknown) => boolean> = {
  id: (v) => typeof v === 'string',
  atMs: (v) => Number.isInteger(v) && Math.abs(v as number) <= MAX_DATE_MS,
  method: (v) => typeof v === 'string',
  path: (v) => typeof v === 'string',
  status: (v) => Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 599,
  key: (v) => v === null || typeof v === 'string',
  operation: (v) => v === null || typeof v === 'string',
  ms: (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0,
  instance: (v) => typeof v === 'string',
};

/**
 * A journal line read back: every member the journal writes, of its type (the journal is written
 * by the request log, not taken over the admin API, so its reader is this one), or undefined.
 */
export function readJournalEntry(entry: unknown): JournalEntry | undefined {
  if (!isObject(entry)) return undefined;
  for (const [name, ok] of Object.entries(required))
    if (!Object.hasOwn(entry, name) || !ok(entry[name])) return undefined;
  // A member this reader does not know is left as it is (a newer mock may journal more).
  for (const [name, ok] of Object.entries(optional))
    if (Object.hasOwn(entry, name) && !ok(entry[name])) return undefined;
  return entry as unknown as JournalEntry;
}
