/**
 * @module pipeline/request-log
 * Gives each request an id, times it, and records each API request in a bounded journal (method,
 * path, status, key name, duration, the instance that answered, and what request-record.ts keeps:
 * parsed parameters, the headers that matter, the bounded body; never a key, in any case or
 * encoding, in the path, a name or a value: src/redaction.ts finds them) that the admin endpoint
 * lists and the CLI can print. Control calls (`/__mock/*`) are logged but not journaled, and so
 * is a request a reset came after it began (the journal's epoch). The journal lives in the store.
 */
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env.js';
import { splitUrl } from './query-string.js';
import type { SecretScrubber } from '../../redaction.js';
import { redactQueryKeys } from '../journal/query-keys.js';
import { requestRecorder } from '../journal/request-record.js';
import { secretBlanker } from '../journal/secret-blanking.js';
import { ADMIN_PREFIX } from '../admin/admin-prefix.js';
import { Journal } from '../../state/journal/journal.js';
import type { JournalEntry, JournalStore } from '../../state/journal/store.js';

export type { JournalEntry };
export { Journal };

export function requestLog(options: {
  store: Pick<JournalStore, 'record'>;
  /** The journal's clear count (journal.ts): a request that began before a clear is not journaled. */
  epoch?: () => number;
  now: () => number;
  instance: string;
  log?: (line: string) => void;
  /** Finds every configured secret (keys, admin token) in any form: blanked in the line and the journal. */
  scrubber?: SecretScrubber;
  /** A key's purpose (`fullAccess`, ...) by its name, when it has one. */
  keyPurpose?: (name: string) => string | undefined;
  /** Whether a path (not a control call) is journaled; default every one. */
  journaled?: (rawPath: string) => boolean;
}) {
  const { store, epoch, now, instance, log, scrubber, keyPurpose, journaled } = options;
  const blank = secretBlanker(scrubber);
  const requestRecord = requestRecorder(blank, keyPurpose);
  let counter = 0;
  return createMiddleware<AppEnv>(async function logRequest(c, next) {
    const started = performance.now();
    const began = epoch?.();
    const id = (++counter).toString(36);
    try {
      await next();
    } finally {
      const { rawPath, search } = splitUrl(c.req.url);
      const control = rawPath === ADMIN_PREFIX || rawPath.startsWith(`${ADMIN_PREFIX}/`);
      const entry: JournalEntry = {
        id,
        atMs: now(),
        method: c.req.method,
        path: search
          ? `${blank.text(rawPath)}?${redactQueryKeys(search, scrubber)}`
          : blank.text(rawPath),
        status: c.res.status,
        key: c.get('key')?.name ?? null,
        operation: c.get('operation')?.operationId ?? null,
        ms: Math.round((performance.now() - started) * 100) / 100,
        instance,
        ...(c.get('operation') ? requestRecord(c) : {}),
      };
      // Control calls are the test's own, not what its client sent: kept out of the API journal.
      // A reset since this request began is a barrier: the next test never sees it.
      if (!control && began === epoch?.() && journaled?.(rawPath) !== false) store.record(entry);
      log?.(`${entry.method} ${entry.path} ${entry.status} ${entry.ms}ms key=${entry.key ?? '-'}`);
    }
  });
}
