/**
 * @module state/records/store
 * The record-edit log kept with the state: in this process (memory.ts), or on the shared store's
 * connection (redis.ts), whose version every turn reads.
 */
import type { RecordLog } from './records.js';

export interface RecordsStore {
  /** The record-edit log kept with this state. */
  log(): RecordLog;
  /** Counts entries of this state that a reader refused (a record edit read back) in `repaired`. */
  noteSpoiled(n: number, what: string): void;
}
