/**
 * @module records.test (state)
 * The in-memory record-edit log: a version that changes with every change, and bounds on the
 * number of edits and their bytes, refused with a message that says how to start again.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_RECORD_EDIT_BYTES,
  MAX_RECORD_EDITS,
  MemoryRecordLog,
  RecordLogFullError,
  storedEdit,
} from './records.js';

const edit = (i: number) => ({ op: 'remove' as const, family: 'packages' as const, id: `P${i}` });

describe('MemoryRecordLog', () => {
  it('changes its version with every append and clear, and keeps the order', async () => {
    const log = new MemoryRecordLog();
    const v0 = log.version();
    await log.append(edit(1));
    await log.append(edit(2));
    const { version, edits } = await log.read();
    expect(version).not.toBe(v0);
    expect(edits.map((e) => e.id)).toEqual(['P1', 'P2']);
    await log.clear();
    expect(log.version()).not.toBe(version);
    expect((await log.read()).edits).toEqual([]);
  });

  it(`refuses the edit after ${MAX_RECORD_EDITS}, and the bytes past ${MAX_RECORD_EDIT_BYTES}`, async () => {
    const log = new MemoryRecordLog();
    for (let i = 0; i < MAX_RECORD_EDITS; i++) await log.append(edit(i));
    await expect(log.append(edit(-1))).rejects.toBeInstanceOf(RecordLogFullError);
    await log.clear();
    await log.append(edit(0));
    expect(() => storedEdit(edit(0), 0, MAX_RECORD_EDIT_BYTES - 10)).toThrow(
      /reset to start again/,
    );
    expect(storedEdit(edit(0), 0, 0)).toBe(JSON.stringify(edit(0)));
  });
});
