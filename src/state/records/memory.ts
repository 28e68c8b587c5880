/**
 * @module state/records/memory
 * The record-edit log of one process; nothing but this process writes it, so nothing is spoiled.
 */
import { MemoryRecordLog, type RecordLog } from './records.js';
import type { RecordsStore } from './store.js';

export class MemoryRecords implements RecordsStore {
  log(): RecordLog {
    return new MemoryRecordLog();
  }
  noteSpoiled(): void {}
}
