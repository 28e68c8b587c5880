/**
 * @module state/journal/store
 * The request journal behind one small interface: this process's (memory.ts) or the fleet's
 * (redis.ts). Recording never waits and never fails the request.
 */
import type { FaultAction } from '../faults/faults.js';

/** What the journal keeps of an API request beyond its line; members absent when empty. */
export interface JournalRequest {
  /** The key's purpose (`fullAccess`, ...) when it is the demo key of one; the key itself never. */
  keyPurpose?: string;
  /** Path parameters as the mock parsed them. */
  params?: Record<string, unknown>;
  /** The query as the mock parsed it (typed, defaults applied). */
  query?: Record<string, unknown>;
  /** accept, content-type, prefer, user-agent, x-request-id (never the key header). */
  headers?: Record<string, string>;
  /** The JSON body the client sent. */
  body?: unknown;
  /** The body as text when it is not JSON or was cut. */
  bodyText?: string;
  /** True when the body was longer than the journal keeps. */
  bodyCut?: boolean;
  /** The id of the stub that answered, if one did. */
  stub?: string;
  /** True when that stub was unchecked: the answer may break the contract. */
  unchecked?: boolean;
  /** Why the stub's patch was not applied to this answer (it did not apply, or broke a fact). */
  stubSkipped?: string;
  /** The QA fault that shaped the answer: a `Prefer` header's, an armed one's, or the plan's (random, latency). */
  fault?: JournalFault;
}

/** A fault as the journal names it. */
export interface JournalFault {
  by: 'prefer' | 'armed' | 'plan';
  action: FaultAction;
}

/** One request as the journal keeps it. */
export interface JournalEntry extends JournalRequest {
  id: string;
  /** Epoch ms; formatted only when the journal is read (a Date per request costs throughput). */
  atMs: number;
  method: string;
  /** Path and query as received, the value of any key-like query parameter (`api_key`, ...) or secret redacted. */
  path: string;
  status: number;
  key: string | null;
  operation: string | null;
  ms: number;
  /** The mock instance that answered (`--instance-id`, default hostname:pid). */
  instance: string;
}

/** A journal entry as read: `at` as an ISO date. */
export type JournalLine = Omit<JournalEntry, 'atMs'> & { at: string };

export interface JournalStore {
  /** Adds a request to the journal; never waits and never fails the request. */
  record(entry: JournalEntry): void;
  /** The newest `n` entries, newest first. */
  last(n: number): Promise<JournalLine[]>;
  clear(): Promise<void>;
  /** Most entries kept. */
  readonly capacity: number;
  /** How many entries recorded since the journal was last cleared it no longer keeps. */
  dropped(): Promise<number>;
}

/** A journal entry with `at` as an ISO date, as the admin endpoint lists it. */
export function journalLine({ atMs, ...entry }: JournalEntry): JournalLine {
  return { at: new Date(atMs).toISOString(), ...entry };
}
