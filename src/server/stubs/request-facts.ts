/**
 * @module stubs/request-facts
 * A request as the one matcher sees it, the same for faults, stubs and the journal (a live request,
 * or a journal line read back): the operation, the key's name, the path parameters and query as
 * the mock parsed them (typed, defaults applied) and the JSON body as the client sent it (before
 * the schema's defaults are filled in, so a body match means what the client wrote, as `verify`
 * reads it from the journal).
 */
import type { Context } from 'hono';
import type { JournalLine } from '../../state/journal/store.js';
import { REQUEST_HEADERS_KEPT, type MatchFacts } from '../../state/stubs/match.js';
import type { AppEnv } from '../env.js';

/** The JSON body as sent, or undefined (none, or not JSON). */
export function sentBody(c: Context<AppEnv>): unknown {
  const text = c.get('bodyText');
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function matchFactsOf(c: Context<AppEnv>): MatchFacts & { operationId: string } {
  const input = c.get('input');
  return {
    operationId: c.get('operation').operationId,
    keyName: c.get('key')?.name,
    params: input?.path,
    query: input?.query,
    body: sentBody(c),
    headers: keptHeaders(c),
  };
}

/** The kept request headers this request carried (the journal keeps the same ones). */
function keptHeaders(c: Context<AppEnv>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of REQUEST_HEADERS_KEPT) {
    const value = c.req.header(name);
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/** A journal line as the matcher sees it: the same facts, as the journal kept them. */
export const journalFactsOf = (line: JournalLine): MatchFacts => ({
  operationId: line.operation,
  params: line.params,
  query: line.query,
  body: line.body,
  keyName: line.key,
  headers: line.headers,
});
