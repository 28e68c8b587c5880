/**
 * @module journal/journal-window
 * The whole journal as the admin endpoints read it, with its window: how many requests it keeps
 * and how many earlier ones it no longer keeps, so a listing and a verdict can say so.
 */
import type { JournalRecord, JournalRecords } from '../../api/types.js';
import { windowNote, type JournalWindow } from '../../state/journal/journal.js';
import type { JournalLine, JournalStore } from '../../state/journal/store.js';

export interface JournalRead {
  lines: JournalLine[];
  window: JournalWindow & { note?: string };
}

/** Every entry kept (newest first) and the window they make. */
export async function readJournal(
  store: Pick<JournalStore, 'last' | 'dropped' | 'capacity'>,
): Promise<JournalRead> {
  const [lines, dropped] = await Promise.all([store.last(store.capacity), store.dropped()]);
  const window: JournalWindow = { kept: lines.length, dropped, size: store.capacity };
  const note = windowNote(window);
  return { lines, window: note === undefined ? window : { ...window, note } };
}

/** True when A and B have the same members (optional ones too) and each is assignable to the other. */
type SameShape<A, B> = [A, keyof A] extends [B, keyof B]
  ? [B, keyof B] extends [A, keyof A]
    ? true
    : false
  : false;
/**
 * Compile-time: what these endpoints answer is the library's public shape (api/types.ts): a member
 * added to the state's journal entry and not to `JournalRecord` (or the other way) fails here.
 */
const answersArePublic: [
  SameShape<JournalLine, JournalRecord>,
  SameShape<JournalRead['window'], JournalRecords['window']>,
] = [true, true];
void answersArePublic;
