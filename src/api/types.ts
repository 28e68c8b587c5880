/**
 * @module api/types
 * Every public type of the package, defined here: the package root re-exports its types from this
 * module alone, and the mock's and suite's own modules take these types from here (the state keeps
 * a `FaultAction`, a `Stub`, a `Tier` as the library hands them over). So this module is a leaf: it
 * imports nothing but the contract's generated types and its kinds of fact (dependency-cruiser:
 * `public-types-are-a-leaf`), whatever imports it, it cannot form a cycle, and a renamed internal
 * file cannot change the API. Whatever these names reach is part of the published declarations, so
 * nothing here may reach a Node, Redis, cache or vitest type: a user without `@types/node` and with
 * `skipLibCheck` off type-checks against them (src/package/installed.test.ts, on the TypeScript
 * range docs/library.md states).
 */
import type { Source } from '../contract/model.js';
import type { Release as ReleaseName } from '../contract/releases.js';
import type {
  OperationId,
  ProductPartSearchRequest,
  Release,
  SearchOperator,
} from '../contract/named-types.gen.js';
import type { operations } from '../contract/types.gen.js';

export type { StartProxyOptions, RunningProxy, ProxyInput } from '../proxy/index.js';
export type { paths, components, operations } from '../contract/types.gen.js';
export type * from '../contract/named-types.gen.js';

// ---------------------------------------------------------------- QA: what a request may suffer

/** What QA can make one request suffer; each field is a row of the table in server/faults/actions.ts. */
export interface FaultAction {
  /** Answer with this documented status and its documented body. */
  status?: number;
  /** Seconds a forced status announces where its response declares `Retry-After` (429). */
  retryAfterSeconds?: number;
  /** Hold the request this long before answering. */
  delayMs?: number;
  /** Drop the connection without answering. */
  reset?: boolean;
  /** Send the headers and only part of the body, then drop the connection. */
  truncate?: boolean;
  /** Send the body slowly, this many bytes per tick (one tick = 50 ms). */
  slowBytesPerTick?: number;
}

/**
 * Which requests a kept control means, as the mock keeps it (untyped per operation: `Match` is
 * the typed form a test writes): every member given must hold.
 */
export interface FaultMatch {
  operationId?: string;
  /** Path parameters, as the mock parsed them. */
  params?: Record<string, unknown>;
  /** Query parameters, as the mock parsed them (typed, defaults applied). */
  query?: Record<string, unknown>;
  /** A JSON subset of the request body. */
  body?: unknown;
  /** The key's name in the keys file (never its secret). */
  key?: string;
  /** Request headers the mock keeps (`accept`, `content-type`, `prefer`, `user-agent`, `x-request-id`), each equal. */
  headers?: RequestHeadersMatch;
}

/** Headers a match names, by their lower-case names; the key header is never one of them. */
export type RequestHeadersMatch = Partial<
  Record<'accept' | 'content-type' | 'prefer' | 'user-agent' | 'x-request-id', string>
>;

/** A fault armed for the next `remaining` requests its match hits. */
export interface ArmedFault {
  id: string;
  match: FaultMatch;
  /** Requests still to be hit. */
  remaining: number;
  action: FaultAction;
}

/** `50` or `50-200` (uniform) milliseconds. */
export interface LatencySpec {
  minMs: number;
  maxMs: number;
}

/** Rates of seeded random faults, e.g. `error=0.05,delay=0.1:100-2000,reset=0.01`. */
export interface RandomFaultSpec {
  errorRate: number;
  delayRate: number;
  delay: LatencySpec;
  resetRate: number;
}

/** A rate-limit tier: the four kinds of limit the source names, and their windows. */
export interface Tier {
  requestsPerMinute: number;
  requestsPerHour: number;
  concurrentConnections: number;
  /** Response bytes allowed per transfer window. */
  bytesPerWindow: number;
  minuteWindowSeconds: number;
  hourWindowSeconds: number;
  transferWindowSeconds: number;
}

// ---------------------------------------------------------------- QA: stubs

/** A whole answer a stub gives. */
export interface StubAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A stub as the mock keeps it (and answers `qa.stub`, `qa.stubs`). */
export interface Stub {
  id: string;
  /** Its match, `operationId` always set. */
  match: FaultMatch & { operationId: string };
  /** A JSON Merge Patch (object) or JSON Patch (array) applied to the dataset's answer. */
  patch?: unknown;
  /** A whole answer instead of the dataset's. */
  respond?: StubAnswer;
  /** Requests still to answer; absent: until removed. */
  remaining?: number;
  /** Answers anything, unchecked; the journal marks such answers. */
  unchecked?: boolean;
  /** Inferred facts the answer breaks (allowed, named). */
  warnings?: string[];
}

// ---------------------------------------------------------------- QA: the controls

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
  /** Request headers the mock keeps, each equal (names in lower case). */
  headers?: RequestHeadersMatch;
}

/** A match of no one operation: only what every request has (the key, its kept headers). */
export interface AnyOperationMatch {
  operationId?: undefined;
  key?: string;
  headers?: RequestHeadersMatch;
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

/** A fault as the journal names it: a `Prefer` header's, an armed one's, or the plan's (random, latency). */
export interface JournalFault {
  by: 'prefer' | 'armed' | 'plan';
  action: FaultAction;
}

/**
 * One request as the journal keeps it (never a key's secret), newest first; members absent when
 * empty. The state's `JournalEntry` is this with `atMs` for `at` (checked in journal-window.ts).
 */
export interface JournalRecord {
  id: string;
  /** When the request came, an ISO date. */
  at: string;
  method: string;
  /** Path and query as received, the value of any key-like query parameter (`api_key`, ...) or secret redacted. */
  path: string;
  status: number;
  /** The key's name in the keys file (never its secret). */
  key: string | null;
  /** The operationId, or null when no operation answered. */
  operation: string | null;
  ms: number;
  /** The mock instance that answered (`--instance-id`, default hostname:pid). */
  instance: string;
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
  /** The QA fault that shaped the answer. */
  fault?: JournalFault;
}

/**
 * Journal entries, with the journal's window beside them (a member the array's iteration, JSON
 * and equality checks do not see): how many it keeps, how many earlier ones it no longer keeps,
 * and a `note` saying so when any were dropped.
 */
export type JournalRecords = JournalRecord[] & {
  readonly window: { kept: number; dropped: number; size: number; note?: string };
};

/** A family a test may edit: the dataset's collection names (state/records/overlay.ts lists them, checked against this). */
export type RecordFamily =
  'products' | 'productParts' | 'documents' | 'boardsKits' | 'packages' | 'softwareTools';

/** An edit as listed (`GET /__mock/records`): which record, not its content (fetch that from the API). */
export interface RecordEditEntry {
  op: 'put' | 'remove';
  family: RecordFamily;
  id: string;
}

/** A fact of the document a record breaks: where, which rule, and the kind of fact. */
export interface RecordProblem {
  pointer: string;
  rule: string;
  message: string;
  source: Source;
}

/** What a put did: `created` false when it replaced a record; `warnings` name the inferred facts it breaks. */
export interface RecordPutResult {
  family: RecordFamily;
  id: string;
  /** False when the identifier named a record already there (now replaced). */
  created: boolean;
  /** Inferred facts the record breaks (taken anyway; DECISIONS 97). */
  warnings: RecordProblem[];
}

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
  /**
   * A scope: a fresh API key, and QA controls that act for requests made with that key alone
   * (stubs, record edits, armed faults, the clock offset, rate-limit windows, the journal), on
   * top of the shared seed. Many tests share one mock this way without seeing each other.
   * Rejects with a QaControlError when the mock holds as many scopes as it may (`--max-scopes`).
   */
  scope(options?: ScopeOptions): Promise<QaScope>;
  /**
   * The live scopes (any test's), most recently used first, never their keys: what the QA
   * console lists. Listing is not a use: it starts no scope's wait again.
   */
  scopes(): Promise<LiveScope[]>;
}

/** A live scope as `scopes()` lists it (`GET /__mock/scopes`). */
export interface LiveScope {
  readonly id: string;
  readonly keyName: string;
  readonly purpose: KeyPurpose;
  readonly tier: string;
  /** Seconds since its last request or control, on the mock's clock. */
  readonly idleSeconds: number;
}

/** What a scope's key is like. */
export interface ScopeOptions {
  /** The demo key of this purpose lends the scope's key its tier, environment and families (default `fullAccess`). */
  purpose?: KeyPurpose;
}

/** One test's private view of a shared mock: its own key, and QA controls for that key alone. */
export interface QaScope extends Omit<QaControls, 'scope' | 'scopes'> {
  /** The scope's identifier, in its admin path (`/__mock/scopes/{id}/...`). */
  readonly id: string;
  /** The secret to send in `x-api-key`: every request with it sees this scope only. */
  readonly apiKey: string;
  /** The key's name, as the journal and `config()` show it (never the secret). */
  readonly keyName: string;
  readonly purpose: KeyPurpose;
  readonly tier: string;
  /** How long the scope lives unused (seconds, `--scope-ttl`); every request or control with it starts the wait again. */
  readonly ttlSeconds: number;
  /** Ends the scope now: its key stops working and its state is gone. Resolves when it is. */
  close(): Promise<void>;
}

export interface QaControlsOptions {
  /** The mock's origin, e.g. `http://127.0.0.1:4010` (the API's base URL works too). */
  origin: string;
  adminToken: string;
  /** How requests are sent: global `fetch` by default; an in-process app's `fetch` also works. */
  fetch?: (request: Request) => Promise<Response>;
}

// ---------------------------------------------------------------- the mock

/** Dataset size multiplier, or `'live'` for the live catalogue's size. */
export type Scale = number | 'live';

/** The environments a keys file and the mock name. */
export type EnvironmentName = 'production' | 'staging';

export interface MockOptions {
  /** Dataset seed (default 1): same seed, same bytes. */
  seed?: number;
  /** Dataset size multiplier (default 1), or `'live'` for the live catalogue's size. */
  scale?: Scale;
  /** Serve what this release served (`'1.0.0'` ... the newest, or `'unreleased'`); default the newest. */
  release?: Release;
  /** Default `'production'`; with `'both'`, staging is served under `/staging/web-data/v1`. */
  environment?: EnvironmentName | 'both';
  /** API keys file (default: the package's config/keys.json, the demo keys). */
  keysFile?: string;
  /** Rate-limit tiers file (default: the package's config/tiers.json). */
  tiersFile?: string;
  /** Applied to every tier, e.g. `{ requestsPerMinute: 5, minuteWindowSeconds: 10 }`. */
  rateLimit?: Partial<Tier>;
  /** Seeded random faults: `'error=0.05,delay=0.1:100-2000,reset=0.01'` (the CLI's `--faults`) or parsed. */
  faults?: string | RandomFaultSpec;
  /** Latency added to every API request: ms, `'min-max'`, or `{ minMs, maxMs }`. */
  latency?: number | string | LatencySpec;
  /** Seed of the fault and latency sequence (default 1). */
  faultSeed?: number;
  /**
   * The token of the `/__mock/*` QA controls (default: a random one, which `qa` on the result
   * holds); give one to drive the controls from elsewhere too (curl, another process).
   */
  adminToken?: string;
  /** Check every response against the document before sending it (default off). */
  validateResponses?: boolean;
  /** One line per request (never the key). */
  log?: (line: string) => void;
  /** Serve responses the proxy recorded (its `--recordings` folder) where a request matches. */
  replayDir?: string;
  /**
   * Records of your own laid over the dataset at start, `{ family: [records] }` (the CLI's
   * `--records FILE`): checked like `qa.records.put`, and part of the dataset a reset returns to.
   */
  records?: Partial<Record<RecordFamily, readonly object[]>>;
  /**
   * Legal variation (the CLI's `--vary <seed>`): every answer differs from the dataset's as far as
   * the document allows, the same for the same seed and request; `x-mock-variation` names the
   * pointers varied. Off by default.
   */
  vary?: { seed: number };
  /**
   * Where the mutable state lives (the CLI's `--state`): `'memory'` (default, this process), or a
   * Redis URL (`redis://127.0.0.1:6379/0`, `rediss://...`) shared by every mock started with it.
   */
  state?: string;
  /** Prefix of every Redis key (the CLI's `--state-prefix`; default `web-data-mock:`). */
  statePrefix?: string;
  /**
   * The request journal (the CLI's `--journal-size`): `size` requests kept, default 500, at most
   * 100000. Verify and the journal name the earlier requests no longer kept.
   */
  journal?: { size?: number };
  /**
   * Seconds a scope (`qa.scope()`) lives unused before it ends (the CLI's `--scope-ttl`; default
   * 900). Measured on the mock's clock.
   */
  scopeTtlSeconds?: number;
  /** Scopes the mock holds at once (the CLI's `--max-scopes`; default 256); one more is refused with 409. */
  maxScopes?: number;
}

/**
 * The demo key of each purpose (`fullAccess`, `rateLimited`, ...), as in `examples.keys`. With a
 * keys file of your own that has no key for a purpose, reading that purpose throws, naming it.
 */
export type MockKeys = Readonly<Record<KeyPurpose, string>>;

export interface MockHandle {
  /** Base URL of the API, e.g. `http://127.0.0.1:41234/web-data/v1`. */
  url: string;
  origin: string;
  keys: MockKeys;
  /** What `GET /examples.json` serves: identifiers, searches, one request per operation. */
  examples: Examples;
  /** The QA controls of this mock (arm a fault, reset rate limits, the journal, ...). */
  qa: QaControls;
}

export interface RunningMock extends MockHandle {
  close(): Promise<void>;
}

export interface MockAppHandle extends MockHandle {
  /** Answers one request in process, as the server would. */
  fetch(request: Request): Promise<Response>;
  /** Closes what the app holds open: its Redis connection with `state`, else nothing. */
  close(): Promise<void>;
}

export interface StartMockOptions extends MockOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
}

export interface MockAppOptions extends MockOptions {
  /** The origin requests are addressed to and absolute hrefs name (default `http://web-data.mock`). */
  origin?: string;
}

// ---------------------------------------------------------------- test runners

/**
 * A running mock as a test runner hands it on (vitest's global set-up to its test files, a CI step
 * to `node --test` through `WEB_DATA_MOCK_URL` and `MOCK_ADMIN_TOKEN`): where it is and its admin
 * token, from which each test asks for a scope of its own.
 */
export interface SharedMock {
  /** Base URL of the API, e.g. `http://127.0.0.1:4010/web-data/v1`. */
  url: string;
  origin: string;
  adminToken: string;
}

/** What one test gets from a runner helper: its own scope of a (shared) mock. */
export interface TestScope {
  /** Base URL of the API. */
  url: string;
  origin: string;
  /** The scope's key, for `x-api-key`: requests with it see this test's stubs, faults and clock alone. */
  apiKey: string;
  /** QA controls for this test's scope alone; the helper closes it after the test. */
  qa: QaScope;
  /** What `GET /examples.json` serves (identifiers that exist in this dataset, searches, ...). */
  examples: Examples;
}

/** Options of the runner helpers (`web-data-api-double/vitest`, `web-data-api-double/node-test`). */
export interface TestScopeOptions {
  /** The purpose whose demo key lends each test's scope its tier and families (default `fullAccess`). */
  purpose?: KeyPurpose;
  /**
   * How to start a mock when no running one is named (no global set-up, no `WEB_DATA_MOCK_URL`);
   * default: the seed in `MOCK_SEED` (as the CLI reads it), else startMock's defaults.
   */
  mock?: StartMockOptions;
}

// ---------------------------------------------------------------- /examples.json

/** A parametric search in plain terms, whatever the request body looks like. */
export interface SearchExample {
  productId: string;
  productPartAttributeId: string;
  attributeName: string;
  /** One of the document's search operators (`SearchOperator`), so a `SearchFilter` takes it as is. */
  operator: SearchOperator;
  values: (number | string | boolean)[];
  /** The request body of `searchProductParts` for this search, ready to send. */
  body: ProductPartSearchRequest;
}

export interface KeyExample {
  name: string;
  /** The secret to send in `x-api-key` (demo keys only: their secrets are public). */
  key: string;
  environment: string;
  tier: string;
  /** Endpoint families this key may not call. */
  lacks: string[];
  expired: boolean;
  purpose: string;
}

export interface OperationExample {
  method: string;
  /** Path below the base path, parameters filled in and percent-encoded (`#` as `%23`). */
  path: string;
  pathParameters: Record<string, string>;
  /** JSON request body, for operations that take one. */
  body?: unknown;
}

export interface Examples {
  release: string;
  seed: number;
  scale: Scale;
  environment: string;
  basePath: string;
  /** Identifiers per family, as used in by-ID paths (decoded; `#` and spaces included). */
  ids: {
    products: string[];
    productParts: string[];
    productPartAttributes: string[];
    /** DCP document ids (`/documents/{dcp_id}`). */
    documents: string[];
    /** Agile ids of the same documents (`/documents/agile-id/{agile_id}`). */
    documentsByAgileId: string[];
    documentTypes: string[];
    boardsKits: string[];
    packages: string[];
    softwareTools: string[];
  };
  crossReference: {
    /** For each match type, a competitor number whose matches include that type. */
    byMatchType: Record<
      string,
      { partNumber: string; manufacturer: string | null; matchTypes: string[] }
    >;
    /** A number the dataset does not know (answered with no matches). */
    unknown: string;
    /** The numbers above plus the unknown one: a ready `partNumbers` list. */
    partNumbers: string[];
  };
  search: { matching: SearchExample; empty: SearchExample };
  download: {
    dcpDocumentId: string;
    agileId: string;
    filename: string;
    contentType: string;
    bytes: number;
  };
  keys: {
    /** Each purpose's demo key, or null when the keys file has none for it. */
    byPurpose: Record<KeyPurpose, KeyExample | null>;
    all: KeyExample[];
  };
  /** One working request per operation of the served release, by operationId. */
  operations: Record<string, OperationExample>;
}

export type KeyPurpose =
  'fullAccess' | 'loadTest' | 'rateLimited' | 'restricted' | 'expired' | 'otherEnvironment';

// ---------------------------------------------------------------- the contract suite

/** `runContract(options)`: the command's flags in camelCase, plus the keys. */
export interface RunContractOptions {
  /** A base URL ending in `/web-data/v1`; omitted: the suite starts the bundled mock and checks that. */
  baseUrl?: string;
  /** Required with `baseUrl` (sent in `x-api-key`; redacted from every report). */
  apiKey?: string;
  /** A valid key lacking some endpoint families, for the 403 checks. */
  restrictedApiKey?: string;
  /** A key with a small quota, spent only when `provokeRateLimit` is on. */
  rateLimitApiKey?: string;
  release?: string;
  strict?: boolean;
  /** YAML/JSON list of accepted undeclared-field pointers. */
  allowlist?: string;
  publicBaseUrl?: string;
  xrefNumbers?: string[];
  /** A previous JSON report: findings are marked new, known or gone. */
  baseline?: string;
  restrictedFamilies?: string[];
  provokeRateLimit?: boolean;
  concurrency?: number;
  timeoutMs?: number;
  maxRequests?: number;
  maxBodyBytes?: number;
  maxRetryWaitMs?: number;
  seed?: number;
  /** Where the JSON, Markdown and JUnit reports go (default: a new temporary folder). */
  reportDir?: string;
  /** `'quiet'` (default) keeps vitest's output for an error message; `'inherit'` prints it. */
  output?: 'quiet' | 'inherit';
}

// ---------------------------------------------------------------- the contract report

export type Severity = 'failure' | 'warning';

export interface Finding {
  severity: Severity;
  /** Short rule name, e.g. `schema`, `pagination.offset`, `sort-order`, `auth.401`. */
  rule: string;
  operationId: string;
  method: string;
  /** Full request URL; never contains a key (keys travel in a header). */
  url: string;
  status?: number;
  /** JSON pointer into the body, `header:<name>`, or `status`. */
  pointer?: string;
  expected: string;
  actual?: string;
  message: string;
  /** Reproduces the request, with the key as `$API_KEY`. */
  curl?: string;
  /** `documented` (stated by the source), `reference` (the vendor's reference) or `inferred` (our reading of "not shown"). */
  source?: Source;
  /** For a warning on an unstated point: what the suite assumed (the matching spec/DECISIONS.md entry). */
  assumption?: string;
  /** Against `--baseline`: whether the previous report had this finding. */
  baseline?: 'new' | 'known';
  /** A check (or part of one) that could not run (rule `not-run`): what was not checked, and why. */
  notRun?: { what: string; why: string };
  /** Drift against the baseline's profile (rules `drift.*`): what the service did then, and now. */
  change?: { then: string; now: string };
}

export type CellState = 'exercised' | 'prefer' | 'missed';

export interface CoverageCell {
  operationId: string;
  status: string;
  state: CellState;
  /** Why a cell was not exercised by a natural request. */
  reason?: string;
}

export interface Cause {
  severity: Severity;
  rule: string;
  /** Findings under this rule and severity. */
  count: number;
  /** The operations concerned, most findings first (at most MAX_OPERATIONS_NAMED). */
  operations: { operationId: string; count: number }[];
  /** Operations concerned beyond those named. */
  moreOperations: number;
  /** The first finding of this cause, as its example. */
  first: Finding;
}

/** One test as the reports list it. */
export interface TestRow {
  name: string;
  file: string;
  state: string;
  /** Why a skipped test did not apply (vitest's note). */
  skipped?: string;
}

/** What the suite is pointed at: the mock it started itself, or a live service it must be polite to. */
export type TargetKind = 'mock' | 'live';

export interface ReleaseHint {
  /** The newest release the findings fit. */
  release: ReleaseName;
  /** Older releases they fit as well (nothing the run saw tells them apart). */
  alsoFits: ReleaseName[];
  /** Operations that answered 404 "No such path" and arrived after `release`. */
  unknownPaths: string[];
  /** Absent fields (name and `x-since`) that arrived after `release`. */
  laterFields: { name: string; since: ReleaseName }[];
}

export interface ContractReport {
  /** The base URL the suite checked (the suite's own mock's when none was given). */
  target: string;
  kind: TargetKind;
  release: string;
  seed: number;
  strict: boolean;
  durationMs: number;
  requests: number;
  /** Every test passed, no failure finding, and at least one real request succeeded. */
  passed: boolean;
  /** At least one real request (not asked for with Prefer) got a success. */
  tested: boolean;
  counts: {
    tests: number;
    failedTests: number;
    /** Tests that did not apply to this target (each with its reason in `tests`). */
    skipped: number;
    failures: number;
    warnings: number;
    notRun: number;
  };
  /** The observed profile of this run (profile.json), relative to this report's folder. */
  profile: string;
  /** Against `--baseline`: what the service did then against now (undefined without a baseline). */
  drift: { profile: string | null; failures: number; warnings: number } | undefined;
  /** Against `--baseline`: how many findings are new, known, gone. */
  baseline: { file: string | undefined; new: number; known: number; gone: number } | undefined;
  /** The findings grouped by severity and rule, most first, each with its operations and first example. */
  causes: Cause[];
  /** When a failing target looks like an older release: which, and why. */
  releaseHint: ReleaseHint | undefined;
  tests: TestRow[];
  findings: Finding[];
  gone: Finding[] | undefined;
  coverage: CoverageCell[];
}
