/**
 * @module options
 * Everything the app factory can be told, with the defaults `npm start` uses. The CLI maps flags
 * and environment variables onto this; tests pass what they need.
 */
import { hostname } from 'node:os';
import type { Release } from '../contract/index.js';
import type { RedisStoreOptions } from '../state/redis.js';
import type { Dataset, Scale } from '../dataset/dataset.js';
import type { FaultPlanOptions } from './faults/fault-plan.js';
import { MAX_QA_DURATION_MS } from './faults/actions.js';
import { DEFAULT_JOURNAL_SIZE } from '../state/journal/journal.js';
import { systemClock, systemSleep, type Clock, type Sleep } from '../state/clock/clock.js';
import { DEFAULT_KEYS_FILE, type EnvironmentName } from './config/keys.js';
import { DEFAULT_TIERS_FILE, type Tier } from './config/tiers.js';
import { DEFAULT_BODY_TIMEOUT_MS } from './pipeline/read-body.js';
import type { StartRecords } from './records/seed.js';
import type { VaryOptions } from './pipeline/variation.js';
import { DEFAULT_MAX_SCOPES, DEFAULT_SCOPE_TTL_SECONDS } from './scopes/limits.js';

export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_SEED = 1;
/** Request bodies above this size get a 413 (the source sets no limit; see DECISIONS.md). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

export interface AppOptions {
  seed: number;
  scale: Scale;
  /** Serve what this release served (`x-since`); `undefined` = newest released; `'unreleased'` adds the download endpoints. */
  apiVersion: Release | undefined;
  environments: EnvironmentName[];
  keysFile: string;
  tiersFile: string;
  /** Applied to every tier (e.g. a QA run with `{ requestsPerMinute: 5, minuteWindowSeconds: 10 }`). */
  tierOverride: Partial<Tier>;
  clock: Clock;
  /** How QA delays and dribbles wait (real timers; tests drive a ManualSleep instead of sleeping). */
  sleep: Sleep;
  /** Public origin for absolute hrefs, e.g. `http://127.0.0.1:4010`. */
  origin: string;
  /** Absolute hrefs name the origin each request came to, not `origin` (a mock on a socket without a public origin given: pipeline/href-origin.ts). */
  hrefsFollowHost: boolean;
  /** Check every response against the document before sending it (off unless the caller asks: `--validate-responses`, the tests' setups). */
  validateResponses: boolean;
  maxBodyBytes: number;
  /** A request body (API or admin) not all in within this many ms is refused (400, connection closed). */
  bodyTimeoutMs: number;
  /** Enables `/__mock/*` control endpoints, reachable only with this token. */
  adminToken: string | undefined;
  /** Host names the `/__mock/*` controls answer to besides loopback and the origin's (`--admin-host`). */
  adminHosts: readonly string[];
  /** One line per request to this function (off by default). */
  log: ((line: string) => void) | undefined;
  /** Serve responses a proxy recorded (the proxy's `--recordings`) where a request matches one. */
  replayDir: string | undefined;
  /** Seeded random faults and global latency (QA); none by default. */
  faults: FaultPlanOptions;
  /** Legal variation of every answer (`--vary <seed>`); off by default. */
  vary: VaryOptions | undefined;
  /** Longest a response may be held up by QA delays and dribbles together (tests shorten it). */
  maxQaDurationMs: number;
  /** Shared state (`redis://host:port/db`); undefined keeps it in this process (see src/state/). */
  stateUrl: string | undefined;
  /** Key prefix, lease, timeouts of the shared store (defaults in src/state/redis.ts). */
  stateOptions: Partial<Omit<RedisStoreOptions, 'instanceId'>>;
  /** This instance in the journal (default hostname:pid). */
  instanceId: string;
  /** Requests the journal keeps (`--journal-size`, `journal: { size }`); older ones are dropped and counted. */
  journalSize: number;
  /** A dataset built elsewhere (tests share one between apps); otherwise built from seed and scale. */
  datasets: Partial<Record<EnvironmentName, Dataset>>;
  /** Records laid over the dataset at start (`--records`, `startMock({ records })`): part of the seed. */
  records: StartRecords | undefined;
  /** A scope unused this long ends (`--scope-ttl`, `scopeTtlSeconds`; src/server/scopes/). */
  scopeTtlSeconds: number;
  /** Scopes the mock holds at once (`--max-scopes`, `maxScopes`); one more is refused. */
  maxScopes: number;
}

export function resolveOptions(partial: Partial<AppOptions> = {}): AppOptions {
  const given = Object.fromEntries(
    Object.entries(partial).filter(([, v]) => v !== undefined),
  ) as Partial<AppOptions>;
  return {
    seed: DEFAULT_SEED,
    scale: 1,
    apiVersion: undefined,
    environments: ['production'],
    keysFile: DEFAULT_KEYS_FILE,
    tiersFile: DEFAULT_TIERS_FILE,
    tierOverride: {},
    clock: systemClock,
    sleep: systemSleep,
    origin: `http://localhost:${DEFAULT_PORT}`,
    hrefsFollowHost: false,
    validateResponses: false,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    bodyTimeoutMs: DEFAULT_BODY_TIMEOUT_MS,
    adminToken: undefined,
    adminHosts: [],
    replayDir: undefined,
    log: undefined,
    datasets: {},
    records: undefined,
    faults: { seed: DEFAULT_SEED },
    vary: undefined,
    maxQaDurationMs: MAX_QA_DURATION_MS,
    stateUrl: undefined,
    stateOptions: {},
    instanceId: `${hostname()}:${process.pid}`,
    journalSize: DEFAULT_JOURNAL_SIZE,
    scopeTtlSeconds: DEFAULT_SCOPE_TTL_SECONDS,
    maxScopes: DEFAULT_MAX_SCOPES,
    ...given,
  };
}
