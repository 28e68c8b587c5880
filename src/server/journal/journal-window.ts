/**
 * @module journal/journal-window
 * The whole journal as the admin endpoints read it, with its window: how many requests it keeps
 * and how many earlier ones it no longer keeps, so a listing and a verdict can say so.
 */
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
