/**
 * @module console/journal-poll
 * `GET /__mock/requests/poll`: the journal as a long poll, for the QA console (an EventSource
 * cannot send the admin header, and the token must never ride in a URL). `after` is the cursor
 * the last answer gave; the answer holds the entries newer than it (newest first) as soon as there
 * are any, or none once `waitMs` has passed. A cursor no longer in the journal (dropped from the
 * window, or the journal was cleared) gets every entry kept, marked `gap: true`. Bounded: at most
 * MAX_WAIT_MS per poll, MAX_WAITING polls held at once (more are answered at once), and a poll
 * whose client went away stops looking.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Context, Env } from 'hono';
import { apiError } from '../errors.js';
import type { JournalLine, JournalStore } from '../../state/journal/store.js';

export const MAX_WAIT_MS = 20_000;
/** How often a held poll looks at the journal again. */
export const POLL_TICK_MS = 150;
/** Polls held open at once; further ones are answered without waiting. */
export const MAX_WAITING = 16;

/** Waits `ms`, or less when `signal` aborts (injectable, so a test need not wait). */
export type Wait = (ms: number, signal: AbortSignal) => Promise<void>;
const realWait: Wait = (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined);

const cursorOf = (line: Pick<JournalLine, 'id' | 'instance'>) => `${line.id}@${line.instance}`;

/** The entries newer than `after` (newest first), or all of them with `gap` when it is gone. */
export function newerThan(
  lines: readonly JournalLine[],
  after: string | undefined,
): { requests: JournalLine[]; gap: boolean } {
  if (after === undefined) return { requests: [...lines], gap: false };
  const at = lines.findIndex((line) => cursorOf(line) === after);
  if (at === -1) return { requests: [...lines], gap: lines.length > 0 };
  return { requests: lines.slice(0, at), gap: false };
}

function waitOf(raw: string | undefined): number {
  if (raw === undefined) return MAX_WAIT_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_WAIT_MS)
    throw apiError(400, `waitMs must be an integer from 0 to ${MAX_WAIT_MS}`, {
      details: [
        { in: 'query', name: 'waitMs', rule: `0 to ${MAX_WAIT_MS}`, message: 'out of range' },
      ],
    });
  return ms;
}

/** The handler of `GET /requests/poll` over `store`. */
export function journalPoll(store: Pick<JournalStore, 'last' | 'capacity'>, wait = realWait) {
  let waiting = 0;
  return async function pollJournal(c: Context<Env, string>) {
    const after = c.req.query('after');
    if (after !== undefined && after.length > 200)
      throw apiError(400, 'after must be a cursor from an earlier answer (at most 200 characters)');
    const waitMs = waiting >= MAX_WAITING ? 0 : waitOf(c.req.query('waitMs'));
    const deadline = Date.now() + waitMs;
    const signal = c.req.raw.signal;
    waiting += 1;
    try {
      for (;;) {
        const lines = await store.last(store.capacity);
        const { requests, gap } = newerThan(lines, after);
        const done = requests.length > 0 || gap || Date.now() >= deadline || signal.aborted;
        if (done)
          return c.json({
            requests,
            gap,
            cursor: lines.length > 0 ? cursorOf(lines[0]) : (after ?? null),
          });
        await wait(Math.min(POLL_TICK_MS, deadline - Date.now()), signal);
      }
    } finally {
      waiting -= 1;
    }
  };
}
