/**
 * @module api/qa
 * The QA controls from code: a typed client of the mock's `/__mock/*` control endpoints (arm a
 * fault, reset rate limits, advance the clock, read the request journal), so a test does not
 * hand-build admin requests. It speaks HTTP (or calls an in-process app's `fetch`), so the same
 * client drives a mock started here, one in a container, or one on another machine.
 */
import { refuseUnknownOptions } from './option-names.js';
import { ADMIN_PREFIX, ADMIN_TOKEN_HEADER } from '../server/admin/admin.js';
import type { FaultAction } from '../server/faults/actions.js';
import type { ArmedFault } from '../state/faults/faults.js';
import type { JournalEntry } from '../server/pipeline/request-log.js';
import type { OperationId } from '../contract/named-types.gen.js';
import type { operations } from '../contract/types.gen.js';
import type { RecordEditEntry, RecordFamily } from '../state/records/overlay.js';
import type { PutResult as RecordPutResult } from '../server/records/control.js';
import type { Stub, StubAnswer } from '../state/stubs/stubs.js';

/** A value a URL carries for a number or boolean parameter: the value, or the text that prints it. */
type AsSent<T> = T extends number | boolean ? T | `${T}` : T;
/** A JSON subset of a body: any members of an object, recursively; arrays and scalars whole. */
type Subset<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: Subset<T[K]> }
    : T;
type Parameters<Op extends OperationId> = operations[Op]['parameters'];
type PathOf<Op extends OperationId> = NonNullable<Parameters<Op>['path']>;
type QueryOf<Op extends OperationId> = NonNullable<Parameters<Op>['query']>;
type RequestBodyOf<Op extends OperationId> = NonNullable<operations[Op]['requestBody']>;
type BodyOf<Op extends OperationId> = [RequestBodyOf<Op>] extends [never]
  ? never
  : RequestBodyOf<Op> extends { content: { 'application/json': infer Body } }
    ? Body
    : never;

/**
 * What a match may say about one operation's requests, typed from the document: its path
 * parameters (as the mock parses them: strings), its query parameters (typed, or the text that
 * prints a number or boolean), a JSON subset of its body (only where it takes one), the key's name.
 */
export interface MatchOf<Op extends OperationId> {
  operationId?: Op;
  /** Path parameters the operation declares, as the mock parsed them. */
  params?: [PathOf<Op>] extends [never] ? never : { [K in keyof PathOf<Op>]?: PathOf<Op>[K] };
  /** Query parameters the operation declares, as the mock parsed them (typed, defaults applied). */
  query?: [QueryOf<Op>] extends [never]
    ? never
    : { [K in keyof QueryOf<Op>]?: AsSent<QueryOf<Op>[K]> };
  /** A JSON subset of the request body, where the operation takes one. */
  body?: [BodyOf<Op>] extends [never] ? never : Subset<BodyOf<Op>>;
  /** The key's name in the keys file (or a purpose such as `fullAccess`). */
  key?: string;
}

/** A match of no one operation: only what every request has (the key). */
export interface AnyOperationMatch {
  operationId?: undefined;
  key?: string;
  params?: never;
  query?: never;
  body?: never;
}

/**
 * Which requests a control means: every member given must hold, and each must be one some
 * request can meet (docs/library.md). Typed per operation: `params`, `query` and `body` name
 * what `operationId`'s operation declares.
 */
export type Match =
  { [Op in OperationId]: MatchOf<Op> & { operationId: Op } }[OperationId] | AnyOperationMatch;

/** The match of a control that names its operation beside it (a stub, a fault): no second operationId. */
type MatchBeside<Op extends OperationId> = Omit<MatchOf<Op>, 'operationId'> & {
  operationId?: Op;
};

interface StubAnswerSpec {
  /** A JSON Merge Patch (RFC 7396) object or a JSON Patch (RFC 6902) array. */
  patch?: Record<string, unknown> | readonly Record<string, unknown>[];
  respond?: StubAnswer;
  /** Answers this many requests, then is gone; default until removed. */
  times?: number;
  /** Answers anything, not judged against the contract; the journal marks such answers. */
  unchecked?: boolean;
}

/** A stub to add: what it matches, and what it answers (a patch of the dataset's answer, or a whole one). */
export type StubToAdd = {
  [Op in OperationId]: StubAnswerSpec & { operationId: Op; match?: MatchBeside<Op> };
}[OperationId];

interface FaultSpec extends FaultAction {
  /** How many matching requests the fault hits; default 1 (DEFAULT_FAULT_TIMES). */
  times?: number;
  /** The older name of `times` (give one of the two). */
  count?: number;
  /** Only requests made with this key (its name, or a purpose such as `fullAccess`). */
  key?: string;
}

/** A fault to arm for the next `times` matching requests (default 1): only what the mock takes. */
export type FaultToArm =
  | (FaultSpec & { operationId?: undefined; match?: Match })
  | {
      [Op in OperationId]: FaultSpec & {
        /** Only this operation (one of the document's operationIds); default any. */
        operationId: Op;
        /** Only requests like this (path parameters, parsed query, a body subset, key). */
        match?: Omit<MatchBeside<Op>, 'operationId'> & { operationId?: never };
      };
    }[OperationId];

/** One request as the journal keeps it (never a key's secret), newest first. */
export type JournalRecord = Omit<JournalEntry, 'atMs'> & { at: string };

/**
 * Journal entries, with the journal's window beside them (a member the array's iteration, JSON
 * and equality checks do not see): how many it keeps, how many earlier ones it no longer keeps,
 * and a `note` saying so when any were dropped.
 */
export type JournalRecords = JournalRecord[] & {
  readonly window: { kept: number; dropped: number; size: number; note?: string };
};

/** A family a test may edit: the dataset's collection names. */
export type { RecordFamily, RecordEditEntry } from '../state/records/overlay.js';

/** What a put did: `created` false when it replaced a record; `warnings` name the inferred facts it breaks. */
export type { PutResult as RecordPutResult } from '../server/records/control.js';

/** Records a test adds, changes or removes; every answer sees the change at once. */
export interface RecordControls {
  /**
   * Adds the record, or replaces the one with its identifier. Checked against the document's
   * schema for the family; a documented or reference fact broken rejects with a QaControlError
   * naming each pointer and rule.
   */
  put(family: RecordFamily, record: object): Promise<RecordPutResult>;
  /** Removes the record with this identifier (a 404 QaControlError when there is none). */
  remove(family: RecordFamily, id: string): Promise<void>;
  /** The edits so far, in order: `{ op, family, id }` each. */
  list(): Promise<RecordEditEntry[]>;
  /** Forgets every edit: the seed's dataset again. */
  clear(): Promise<void>;
}

export interface QaControls {
  /** Records a test adds, changes or removes. */
  records: RecordControls;
  /** Arms a fault; resolves to it (with its `id`, for `clearFaults(id)`). */
  armFault(fault: FaultToArm): Promise<ArmedFault>;
  /** Clears one armed fault, or all of them; resolves to how many were cleared. */
  clearFaults(id?: string): Promise<number>;
  /** The faults still armed. */
  armedFaults(): Promise<ArmedFault[]>;
  /** Forgets the counted requests of one key (by its name in the keys file) or of all keys. */
  resetRateLimits(keyName?: string): Promise<void>;
  /** Moves the rate-limit clock forward; resolves to the total offset in seconds. */
  advanceClock(seconds: number): Promise<number>;
  /** The last `limit` requests (default 50), newest first. */
  journal(limit?: number): Promise<JournalRecords>;
  clearJournal(): Promise<void>;
  /**
   * Adds a stub the contract checks: rejects with a QaControlError naming each pointer and rule
   * when its answer breaks a documented or reference fact; resolves to it (`id`, and `warnings`
   * for inferred facts it breaks).
   */
  stub(stub: StubToAdd): Promise<Stub>;
  /** The stubs kept, oldest first. */
  stubs(): Promise<Stub[]>;
  /**
   * One call between tests: clears stubs, record edits, armed faults, the journal, rate-limit
   * windows and the clock offset.
   */
  reset(): Promise<void>;
  /** Removes one stub, or all; resolves to how many were removed. */
  removeStubs(id?: string): Promise<number>;
  /** The API requests in the journal that match (newest first); every one without a match. */
  requests(match?: Match): Promise<JournalRecords>;
  /**
   * Resolves when the journal holds as many matching requests as expected (default at least one);
   * rejects with a `VerificationError` whose message shows the pattern and the closest requests.
   */
  verify(
    match: Match,
    expect?: { times: number } | { atLeast: number } | { atMost: number },
  ): Promise<void>;
  /** What the mock runs with (release, seed, keys without secrets, clock offset, faults). */
  config(): Promise<Record<string, unknown>>;
}

export interface QaControlsOptions {
  /** The mock's origin, e.g. `http://127.0.0.1:4010` (the API's base URL works too). */
  origin: string;
  adminToken: string;
  /** How requests are sent: global `fetch` by default; an in-process app's `fetch` also works. */
  fetch?: (request: Request) => Promise<Response>;
}

/** A control request that did not succeed: the mock's status and its message. */
export class QaControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'QaControlError';
  }
}

/** A verification that failed: the message shows the expected pattern and the near misses. */
export class VerificationError extends Error {
  constructor(
    message: string,
    /** How many requests matched. */
    readonly count: number,
  ) {
    super(message);
    this.name = 'VerificationError';
  }
}

/** What the journal's endpoints answer. */
interface JournalAnswer {
  requests: JournalRecord[];
  window: JournalRecords['window'];
}

/** The entries, the window defined beside them (not enumerable: `[]` still equals `[]`). */
function withWindow(answer: JournalAnswer): JournalRecords {
  return Object.defineProperty(answer.requests, 'window', {
    value: answer.window,
    enumerable: false,
  }) as JournalRecords;
}

/** Sends one admin request and reads its JSON answer; a failure is a `QaControlError`. */
type AdminCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** The admin API of the mock at `origin`, with the admin token on every request. */
function adminCaller(
  origin: string,
  options: Pick<QaControlsOptions, 'adminToken'>,
  send: (request: Request) => Promise<Response>,
): AdminCall {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { [ADMIN_TOKEN_HEADER]: options.adminToken };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await send(
      new Request(`${origin}${ADMIN_PREFIX}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    if (!response.ok) {
      throw new QaControlError(
        response.status,
        `${method} ${ADMIN_PREFIX}${path}: ${response.status} ${errorMessageOf(text)}`,
      );
    }
    return JSON.parse(text) as T;
  };
}

/** The `error` of a JSON error body, else the text as it came (a proxy in between, say). */
function errorMessageOf(text: string): string {
  try {
    return String((JSON.parse(text) as { error?: unknown }).error ?? text);
  } catch {
    return text;
  }
}

function recordControls(call: AdminCall): RecordControls {
  const recordPath = (family: string, id: string) =>
    `/records/${encodeURIComponent(family)}/${encodeURIComponent(id)}`;
  return {
    // The mock finds the identifier in the record (POST), so the client needs no list of id fields.
    put: (family, record) => call('POST', `/records/${encodeURIComponent(family)}`, record),
    remove: async (family, id) => {
      await call('DELETE', recordPath(family, id));
    },
    list: async () => (await call<{ edits: RecordEditEntry[] }>('GET', '/records')).edits,
    clear: async () => {
      await call('DELETE', '/records');
    },
  };
}

/** `/<resource>` or, with an id, `/<resource>/<id>`. */
function oneOrAll(resource: string, id: string | undefined): string {
  return id === undefined ? `/${resource}` : `/${resource}/${encodeURIComponent(id)}`;
}

export function qaControls(options: QaControlsOptions): QaControls {
  refuseUnknownOptions('qaControls', options, ['origin', 'adminToken', 'fetch']);
  const origin = new URL(options.origin).origin;
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const call = adminCaller(origin, options, send);
  return {
    records: recordControls(call),
    armFault: (fault) => call('POST', '/faults', fault),
    clearFaults: async (id) =>
      (await call<{ cleared: number }>('DELETE', oneOrAll('faults', id))).cleared,
    armedFaults: async () => (await call<{ armed: ArmedFault[] }>('GET', '/faults')).armed,
    resetRateLimits: async (keyName) => {
      await call('POST', '/rate-limits/reset', keyName === undefined ? {} : { key: keyName });
    },
    advanceClock: async (seconds) =>
      (await call<{ clockOffsetSeconds: number }>('POST', '/clock/advance', { seconds }))
        .clockOffsetSeconds,
    journal: async (limit = 50) =>
      withWindow(await call<JournalAnswer>('GET', `/requests?limit=${limit}`)),
    clearJournal: async () => {
      await call('DELETE', '/requests');
    },
    config: () => call('GET', '/config'),
    stub: (stub) => call('POST', '/stubs', stub),
    reset: async () => {
      await call('POST', '/reset', {});
    },
    stubs: async () => (await call<{ stubs: Stub[] }>('GET', '/stubs')).stubs,
    removeStubs: async (id) =>
      (await call<{ removed: number }>('DELETE', oneOrAll('stubs', id))).removed,
    requests: async (match) =>
      withWindow(await call<JournalAnswer>('POST', '/requests/find', { match })),
    verify: async (match, expect = { atLeast: 1 }) => {
      const result = await call<{ ok: boolean; count: number; message: string }>(
        'POST',
        '/requests/verify',
        { match, ...expect },
      );
      if (!result.ok) throw new VerificationError(result.message, result.count);
    },
  };
}
