/**
 * @module journal/request-record
 * What the journal keeps of an API request beyond its line (method, path, status): the path
 * parameters and query as the mock parsed them, the headers that matter, and the JSON body,
 * bounded (MAX_JOURNAL_BODY_CHARS, marked when cut; nested deeper than MAX_JOURNAL_BODY_DEPTH, kept
 * as text). Every configured secret is blanked wherever it stands and however it is spelt (a
 * header value, a query or body name or value, inside a longer string: secret-blanking.ts, which
 * uses src/redaction.ts), so a key never reaches the journal in any member; the key itself is
 * kept only as its name.
 */
import { REQUEST_HEADERS_KEPT } from '../../state/stubs/match.js';
import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import type { SecretBlanker } from './secret-blanking.js';
import type { JournalRequest } from '../../state/journal/store.js';

/** The request headers the journal keeps (the key header is never one of them): the matcher's. */
export const JOURNAL_HEADERS: readonly string[] = REQUEST_HEADERS_KEPT;
/** Longest body text the journal keeps whole; a longer one is kept cut, as text, and marked. */
export const MAX_JOURNAL_BODY_CHARS = 16 * 1024;
/** Longest header value kept. */
const MAX_HEADER_CHARS = 512;

/** A header value, bounded, its secrets blanked. */
const headerValue = (raw: string, blank: SecretBlanker) =>
  blank.text(raw.length > MAX_HEADER_CHARS ? `${raw.slice(0, MAX_HEADER_CHARS)}…` : raw);

/**
 * How the journal keeps a request (empty members left out), for one app: its secrets are fixed,
 * so what was blanked once is kept (secret-blanking.ts).
 */
export function requestRecorder(
  blank: SecretBlanker,
  keyPurpose?: (name: string) => string | undefined,
): (c: Context<AppEnv>) => JournalRequest {
  return (c) => requestRecord(c, blank, keyPurpose);
}

function requestRecord(
  c: Context<AppEnv>,
  blank: SecretBlanker,
  keyPurpose: ((name: string) => string | undefined) | undefined,
): JournalRequest {
  const record: JournalRequest = {};
  const keyName = c.get('key')?.name;
  const purpose = keyName === undefined ? undefined : keyPurpose?.(keyName);
  if (purpose !== undefined) record.keyPurpose = purpose;
  const input = c.get('input');
  if (input && Object.keys(input.path).length > 0)
    record.params = blank.value(input.path) as Record<string, unknown>;
  if (input && Object.keys(input.query).length > 0)
    record.query = blank.value(input.query) as Record<string, unknown>;
  const headers: Record<string, string> = {};
  for (const name of JOURNAL_HEADERS) {
    const value = c.req.header(name);
    if (value !== undefined) headers[name] = headerValue(value, blank);
  }
  if (Object.keys(headers).length > 0) record.headers = headers;
  const stub = c.get('stub');
  if (stub) {
    record.stub = stub.id;
    if (stub.unchecked) record.unchecked = true;
    if (stub.skipped) record.stubSkipped = stub.skipped;
  }
  const fault = c.get('fault');
  if (fault) record.fault = fault;
  const text = c.get('bodyText');
  if (text) {
    if (text.length > MAX_JOURNAL_BODY_CHARS) {
      record.bodyText = blank.text(text.slice(0, MAX_JOURNAL_BODY_CHARS));
      record.bodyCut = true;
    } else {
      const body = blank.jsonBody(text);
      if (body === undefined) record.bodyText = blank.text(text);
      else record.body = body;
    }
  }
  return record;
}
