/**
 * @module state/store
 * The mock's mutable state behind one small interface, so several instances can share it: the
 * rate-limit windows of the four kinds (requests per minute and per hour, concurrent connections,
 * bytes), armed faults and their counts, the request journal and the QA clock's offset.
 * Everything else (dataset, document, answer caches) is deterministic from the seed and stays
 * per instance. `memory.ts` is today's single-process state and the default; `redis.ts` shares it.
 *
 * What a request needs on its way (admit, take an armed fault) may answer synchronously, so the
 * in-memory store costs the hot path no promise; what only the admin endpoints need is async.
 */
import type { ArmedFault, FaultAction, FaultMatch, RequestFacts } from './faults.js';
import type { LimitKind, LimitSnapshot } from './rate-limiter.js';
import type { MatchFacts } from './match.js';
import type { Stub } from './stubs.js';
import type { RecordLog } from './records.js';

export type MaybePromise<T> = T | Promise<T>;

/** An armed fault as it is kept (its count is kept beside it). */
export type KeptFault = Omit<ArmedFault, 'remaining'>;

/**
 * The admin API's readers, which a shared store reads its entries back with (Redis is input too:
 * src/state/entry-readers.ts, src/server/admin/stored-entries.ts).
 */
export interface EntryReaders {
  /** A kept stub read as `POST /__mock/stubs` reads one (its answer judged again), or undefined. */
  stub(entry: unknown): Promise<Stub | undefined>;
  /** A kept fault read as `POST /__mock/faults` reads one, or undefined. */
  fault(entry: unknown): KeptFault | undefined;
}

/**
 * A stub or fault that cannot be added because the shared store is away: refused (503), never
 * kept locally, where it would be dropped without a word when the store came back.
 */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(what: string) {
    super(`the shared state (--state) is unreachable: the ${what} was not added; try again`);
  }
}

/** A request's concurrent-connection slot: given back exactly once, with the body bytes it sent. */
export interface SlotHandle {
  release(bytesSent: number): void;
}

export type Admission = (
  | { ok: true; limit: number; remaining: number; slot: SlotHandle }
  | { ok: false; kind: LimitKind; retryAfterSeconds: number; limit: number }
) & {
  /** True when a shared store was unreachable and this instance decided on its own state. */
  local?: boolean;
};

/** A key's counters; `startedAt` (when each window opened) where the store knows it. */
export type LimitUsage = LimitSnapshot;

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

export interface StateStore {
  /** `memory`, or the shared store's URL with any password redacted. */
  readonly description: string;
  /** True while a shared store is unreachable and this instance decides on its own state. */
  readonly local: boolean;
  /** Spoiled entries of a shared store (a wrong type, `nan` in a count) repaired or ignored so far. */
  readonly repaired: number;
  /**
   * Hands over the admin API's readers: a shared store reads every stub and fault it reads back
   * with them (src/state/entry-readers.ts). The memory store keeps what the admin API read.
   */
  readEntriesWith(readers: EntryReaders): void;
  /** Counts entries of this state that a reader refused (a record edit read back) in `repaired`. */
  noteSpoiled(n: number, what: string): void;

  /** Counts one request for a key (all four kinds, one atomic step) or says which limit refuses it. */
  admit(keyName: string, tierName: string): MaybePromise<Admission>;
  resetLimits(keyName?: string): Promise<void>;
  limits(): Promise<Record<string, LimitUsage>>;

  /** False only when no fault can be armed anywhere (a hint that lets an idle request skip the lookup). */
  mayHaveArmed(): boolean;
  /** Uses up one count of the oldest armed fault that matches, exactly once across every instance. */
  takeFault(request: RequestFacts): MaybePromise<FaultAction | undefined>;
  /** Arms a fault; a StoreUnavailableError while a shared store is away. */
  arm(match: FaultMatch, count: number, action: FaultAction): Promise<ArmedFault>;
  disarm(id?: string): Promise<number>;
  armed(): Promise<ArmedFault[]>;

  /** False only when no stub is kept anywhere (lets a request skip the lookup). */
  mayHaveStubs(): boolean;
  /** The newest stub that matches, one of its `remaining` used up exactly once across every instance. */
  takeStub(request: MatchFacts): MaybePromise<Stub | undefined>;
  /** Keeps a stub; a StoreUnavailableError while a shared store is away. */
  addStub(stub: Stub): Promise<Stub>;
  removeStubs(id?: string): Promise<number>;
  stubs(): Promise<Stub[]>;

  /** Adds a request to the journal; never waits and never fails the request. */
  record(entry: JournalEntry): void;
  /** The newest `n` entries, newest first. */
  journal(n: number): Promise<JournalLine[]>;
  clearJournal(): Promise<void>;
  readonly journalCapacity: number;
  /** How many entries recorded since the journal was last cleared it no longer keeps. */
  journalDropped(): Promise<number>;

  /** Moves the QA clock forward for every instance; resolves to the new offset in ms. */
  advanceClock(ms: number): Promise<number>;
  clockOffsetMs(): Promise<number>;
  /** Puts the QA clock back to its base (offset 0). */
  resetClock(): Promise<void>;

  /** The record-edit log kept with this state: in this process, or on the shared store's connection. */
  recordLog(): RecordLog;

  close(): Promise<void>;
}

/** A journal entry with `at` as an ISO date, as the admin endpoint lists it. */
export function journalLine({ atMs, ...entry }: JournalEntry): JournalLine {
  return { at: new Date(atMs).toISOString(), ...entry };
}
