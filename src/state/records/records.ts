/**
 * @module state/records/records
 * The record edits of the tests (state/records/overlay.ts's `RecordEdit`: plain JSON), kept as an
 * ordered log with a version that changes whenever the log does. Every instance folds the same
 * log over the same seed, so a fleet answers alike; an instance compares versions per request
 * (in memory: a number read, no promise) and re-reads the log only when they differ.
 */
import type { RecordEdit } from './overlay.js';

/** At most this many edits are kept (a test edits a handful; a `--records` file is loaded at start, not here). */
export const MAX_RECORD_EDITS = 10_000;
/** And at most this many bytes of them (as JSON), so a log of large records stays bounded too. */
export const MAX_RECORD_EDIT_BYTES = 64 * 1024 * 1024;

/** The edit as stored (JSON), or a RecordLogFullError when a log holding `count` edits of `bytes` cannot take it. */
export function storedEdit(edit: RecordEdit, count: number, bytes: number): string {
  const text = JSON.stringify(edit);
  if (count >= MAX_RECORD_EDITS || bytes + text.length > MAX_RECORD_EDIT_BYTES)
    throw new RecordLogFullError(
      `at most ${MAX_RECORD_EDITS} record edits and ${MAX_RECORD_EDIT_BYTES} bytes of them (reset to start again)`,
    );
  return text;
}

export class RecordLogFullError extends Error {
  override name = 'RecordLogFullError';
}

/** A shared log that cannot be reached just now (the edit was not made; try again). */
export class RecordLogUnavailableError extends Error {
  override name = 'RecordLogUnavailableError';
}

/** Part of a log: its edits from `start` on, at `version`, in the log `epoch` names. */
export interface RecordLogPart {
  version: string;
  epoch: string;
  start: number;
  /** Undefined where a shared log holds an entry that is not an edit (kept in its place, skipped). */
  edits: (RecordEdit | undefined)[];
}

export interface RecordLog {
  /** True when others write it too (Redis): its edits are checked again when read back. */
  readonly shared: boolean;
  /** Changes whenever the edits change. */
  version(): string | Promise<string>;
  /** The edits in order, with the version they are at. */
  read(): Promise<{ version: string; edits: RecordEdit[] }>;
  /**
   * The edits after the first `start` of the log `epoch` names (every edit, from 0, when the log
   * was cleared or lost since: another epoch), so a reader that has the first `start` reads only
   * what came after them: an edit costs the same whatever came before it.
   */
  readFrom(epoch: string | undefined, start: number): Promise<RecordLogPart>;
  /** Appends one edit (RecordLogFullError past MAX_RECORD_EDITS). */
  append(edit: RecordEdit): Promise<void>;
  /** Forgets every edit: the dataset is the seed's again. */
  clear(): Promise<void>;
  close(): Promise<void>;
}

/** One process's log. */
export class MemoryRecordLog implements RecordLog {
  readonly shared = false;
  #edits: RecordEdit[] = [];
  #bytes = 0;
  #version = 0;
  /** Counts clears: the edits of one epoch are only ever appended to. */
  #epoch = 0;

  version(): string {
    return String(this.#version);
  }
  async read() {
    return { version: this.version(), edits: [...this.#edits] };
  }
  async readFrom(epoch: string | undefined, start: number): Promise<RecordLogPart> {
    const from = epoch === String(this.#epoch) && start <= this.#edits.length ? start : 0;
    return {
      version: this.version(),
      epoch: String(this.#epoch),
      start: from,
      edits: this.#edits.slice(from),
    };
  }
  async append(edit: RecordEdit) {
    this.#bytes += storedEdit(edit, this.#edits.length, this.#bytes).length;
    this.#edits.push(edit);
    this.#version++;
  }
  async clear() {
    if (this.#edits.length === 0) return;
    this.#edits = [];
    this.#bytes = 0;
    this.#version++;
    this.#epoch++;
  }
  async close() {}
}
