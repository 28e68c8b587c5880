/**
 * @module journal-poll.test
 * The journal's long poll, bounded: a poll whose client went away stops looking; no more than
 * MAX_WAITING polls are held at once (the next is answered at once); the cursor's rules.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { JournalLine } from '../../state/journal/store.js';
import { journalPoll, MAX_WAITING, newerThan, type Wait } from './journal-poll.js';

const line = (id: string): JournalLine =>
  ({ id, instance: 'i', at: '', method: 'GET', path: `/${id}`, status: 200 }) as JournalLine;
const store = (lines: JournalLine[] = []) => ({
  last: async () => lines,
  capacity: 500,
});

describe('newerThan', () => {
  it('keeps what is newer than the cursor, all without one, all and a gap when it is gone', () => {
    const lines = [line('3'), line('2'), line('1')];
    expect(newerThan(lines, '2@i').requests.map((l) => l.id)).toEqual(['3']);
    expect(newerThan(lines, undefined)).toMatchObject({ gap: false });
    expect(newerThan(lines, '9@i')).toMatchObject({ gap: true });
    expect(newerThan([], '9@i')).toEqual({ requests: [], gap: false });
  });
});

describe('journalPoll', () => {
  it('stops looking once its client went away', async () => {
    const controller = new AbortController();
    let waits = 0;
    const wait: Wait = async () => {
      waits += 1;
      controller.abort();
    };
    const app = new Hono().get('/poll', journalPoll(store(), wait));
    const res = await app.request('/poll?waitMs=20000', { signal: controller.signal });
    expect(await res.json()).toEqual({ requests: [], gap: false, cursor: null });
    expect(waits).toBe(1);
  });

  it(`holds at most ${MAX_WAITING} polls; the next is answered at once`, async () => {
    const release: (() => void)[] = [];
    const wait: Wait = (_ms, signal) =>
      new Promise((resolve) => {
        release.push(resolve);
        signal.addEventListener('abort', () => resolve());
      });
    const app = new Hono().get('/poll', journalPoll(store(), wait));
    const controller = new AbortController();
    const held = Array.from({ length: MAX_WAITING }, () =>
      app.request('/poll?waitMs=20000', { signal: controller.signal }),
    );
    while (release.length < MAX_WAITING) await new Promise((r) => setImmediate(r));
    const extra = await app.request('/poll?waitMs=20000');
    expect(await extra.json()).toEqual({ requests: [], gap: false, cursor: null });
    expect(release).toHaveLength(MAX_WAITING);
    controller.abort();
    await Promise.all(held.map((r) => Promise.resolve(r)));
  });
});
