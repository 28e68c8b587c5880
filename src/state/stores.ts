/**
 * @module state/stores
 * The mock's mutable state as WireMock keeps its stores (store/Stores.java): one small store per
 * concern, each in its room with its interface (`store.ts`), this process's state (`memory.ts`,
 * the default) and the state a fleet shares in one Redis (`redis.ts`, around one fail-over
 * helper, shared/fail-over.ts): the rate-limit windows (limits/), armed faults (faults/), stubs
 * (stubs/), the request journal (journal/), the QA clock's offset (clock/) and the record-edit
 * log (records/). Everything else (dataset, document, answer caches) is deterministic from the
 * seed and stays per instance.
 *
 * What a request needs on its way (admit, take an armed fault or a stub) may answer
 * synchronously, so the in-memory stores cost the hot path no promise; what only the admin
 * endpoints need is async.
 */
import type { ClockStore } from './clock/store.js';
import type { FaultsStore } from './faults/store.js';
import type { JournalStore } from './journal/store.js';
import type { LimitsStore } from './limits/store.js';
import type { RecordsStore } from './records/store.js';
import type { EntryReaders } from './shared/entry-readers.js';
import type { StubsStore } from './stubs/store.js';

/** One store per concern, and what is said of them all. */
export interface Stores {
  /** `memory`, or the shared store's URL with any password redacted. */
  readonly description: string;
  /** True while a shared store is unreachable and this instance decides on its own state. */
  readonly local: boolean;
  /** Spoiled entries of a shared store (a wrong type, `nan` in a count) repaired or ignored so far. */
  readonly repaired: number;
  readonly limits: LimitsStore;
  readonly faults: FaultsStore;
  readonly stubs: StubsStore;
  readonly journal: JournalStore;
  readonly clock: ClockStore;
  readonly records: RecordsStore;
  /**
   * Hands over the admin API's readers: a shared store reads every stub and fault it reads back
   * with them (shared/entry-readers.ts). The memory stores keep what the admin API read.
   */
  readEntriesWith(readers: EntryReaders): void;
  close(): Promise<void>;
}
