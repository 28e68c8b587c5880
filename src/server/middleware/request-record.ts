/**
 * @module middleware/request-record
 * What the journal keeps of an API request beyond its line (method, path, status): the path
 * parameters and query as the mock parsed them, the headers that matter, and the JSON body,
 * bounded (MAX_JOURNAL_BODY_CHARS, marked when cut). Any string equal to a configured key's secret
 * is blanked wherever it stands (a header token, a query or body value), so a key never reaches
 * the journal in any member; the key itself is kept only as its name.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.js';
import type { IsSecret } from './query-keys.js';
import type { JournalRequest } from '../../state/store.js';

/** The request headers the journal keeps (the key header is never one of them). */
export const JOURNAL_HEADERS = ['accept', 'content-type', 'prefer', 'user-agent', 'x-request-id'];
/** Longest body text the journal keeps whole; a longer one is kept cut, as text, and marked. */
export const MAX_JOURNAL_BODY_CHARS = 16 * 1024;
/** Longest header value kept. */
const MAX_HEADER_CHARS = 512;
/** What a secret found in a kept value is shown as. */
const SECRET_SHOWN = '***';

/** A copy of a JSON value with every string equal to a secret blanked. */
function blanked(value: unknown, isSecret: IsSecret | undefined): unknown {
  if (!isSecret) return value;
  if (typeof value === 'string') return isSecret(value) ? SECRET_SHOWN : value;
  if (Array.isArray(value)) return value.map((v) => blanked(v, isSecret));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [name, v] of Object.entries(value)) out[name] = blanked(v, isSecret);
    return { ...out };
  }
  return value;
}

/** Text with any token (between spaces, commas, semicolons, equals signs, quotes) that is a secret blanked. */
function blankTokens(text: string, isSecret: IsSecret | undefined): string {
  if (!isSecret) return text;
  return text
    .split(/([\s,;="':{}[\]]+)/)
    .map((token) => (isSecret(token) ? SECRET_SHOWN : token))
    .join('');
}

/** A header value, bounded, its secrets blanked. */
const headerValue = (raw: string, isSecret: IsSecret | undefined) =>
  blankTokens(raw.length > MAX_HEADER_CHARS ? `${raw.slice(0, MAX_HEADER_CHARS)}…` : raw, isSecret);

/** The request as the journal keeps it (empty members left out). */
export function requestRecord(
  c: Context<AppEnv>,
  isSecret?: IsSecret,
  keyPurpose?: (name: string) => string | undefined,
): JournalRequest {
  const record: JournalRequest = {};
  const keyName = c.get('key')?.name;
  const purpose = keyName === undefined ? undefined : keyPurpose?.(keyName);
  if (purpose !== undefined) record.keyPurpose = purpose;
  const input = c.get('input');
  if (input && Object.keys(input.path).length > 0)
    record.params = blanked(input.path, isSecret) as Record<string, unknown>;
  if (input && Object.keys(input.query).length > 0)
    record.query = blanked(input.query, isSecret) as Record<string, unknown>;
  const headers: Record<string, string> = {};
  for (const name of JOURNAL_HEADERS) {
    const value = c.req.header(name);
    if (value !== undefined) headers[name] = headerValue(value, isSecret);
  }
  if (Object.keys(headers).length > 0) record.headers = headers;
  const stub = c.get('stub');
  if (stub) {
    record.stub = stub.id;
    if (stub.unchecked) record.unchecked = true;
    if (stub.skipped) record.stubSkipped = stub.skipped;
  }
  const text = c.get('bodyText');
  if (text) {
    if (text.length > MAX_JOURNAL_BODY_CHARS) {
      record.bodyText = blankTokens(text.slice(0, MAX_JOURNAL_BODY_CHARS), isSecret);
      record.bodyCut = true;
    } else {
      try {
        record.body = blanked(JSON.parse(text), isSecret);
      } catch {
        record.bodyText = blankTokens(text, isSecret);
      }
    }
  }
  return record;
}
