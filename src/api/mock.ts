/**
 * @module api/mock
 * The mock for people who drive it from their own test code: `startMock()` on a free port, or
 * `createMockApp()` in process (a `fetch(Request) -> Response`, no socket: an MSW handler or any
 * fetch-shaped seam). Options are the CLI's flags, typed; both return the demo keys by purpose,
 * the examples that work against this very dataset, and the QA controls (always: the library sets
 * a random admin token when none is given, so `qa` needs no check).
 */
import { randomUUID } from 'node:crypto';
import { BASE_PATH } from '../contract/index.js';
import type { Release } from '../contract/named-types.gen.js';
import type { Scale } from '../dataset/dataset.js';
import type { RecordFamily } from '../state/records/overlay.js';
import { createApp, type MockApp } from '../server/app.js';
import { EXAMPLES_PATH, type Examples, type KeyPurpose } from '../server/examples.js';
import { ENVIRONMENTS, type EnvironmentName } from '../server/config/keys.js';
import { startMockServer } from '../server/listen.js';
import { DEFAULT_SEED, type AppOptions } from '../server/options.js';
import {
  parseLatency,
  parseRandomFaults,
  type LatencySpec,
  type RandomFaultSpec,
} from '../server/faults/actions.js';
import type { Tier } from '../server/config/tiers.js';
import { varySeedProblem } from '../server/pipeline/variation.js';
import { journalSizeProblem } from '../state/journal/journal.js';
import { refuseUnknownOptions } from './option-names.js';
import { qaControls, type QaControls } from './qa.js';

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
  /** Serve responses the proxy recorded (its `--fixtures` folder) where a request matches. */
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
}

/** Every member of MockOptions, for the run-time check (option-names.ts). */
const MOCK_OPTION_NAMES = [
  'seed',
  'scale',
  'release',
  'environment',
  'keysFile',
  'tiersFile',
  'rateLimit',
  'faults',
  'latency',
  'faultSeed',
  'adminToken',
  'validateResponses',
  'log',
  'replayDir',
  'records',
  'vary',
  'state',
  'statePrefix',
  'journal',
] as const satisfies readonly (keyof MockOptions)[];
/** Compile-time: a member added to MockOptions and not to the list fails here. */
const everyMockOptionNamed: Record<
  Exclude<keyof MockOptions, (typeof MOCK_OPTION_NAMES)[number]>,
  never
> = {};
void everyMockOptionNamed;

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
const START_MOCK_OPTION_NAMES = [
  ...MOCK_OPTION_NAMES,
  'port',
  'host',
] as const satisfies readonly (keyof StartMockOptions)[];

export interface MockAppOptions extends MockOptions {
  /** The origin requests are addressed to and absolute hrefs name (default `http://web-data.mock`). */
  origin?: string;
}
const MOCK_APP_OPTION_NAMES = [
  ...MOCK_OPTION_NAMES,
  'origin',
] as const satisfies readonly (keyof MockAppOptions)[];
const everyStartOptionNamed: Record<
  Exclude<keyof StartMockOptions, (typeof START_MOCK_OPTION_NAMES)[number]>,
  never
> = {};
const everyAppOptionNamed: Record<
  Exclude<keyof MockAppOptions, (typeof MOCK_APP_OPTION_NAMES)[number]>,
  never
> = {};
void everyStartOptionNamed;
void everyAppOptionNamed;

/** `state`: `'memory'` or undefined keeps it in process; a Redis URL shares it. */
function stateUrlOf(state: unknown): string | undefined {
  if (state === undefined || state === 'memory') return undefined;
  if (typeof state === 'string' && /^rediss?:\/\//.test(state)) return state;
  throw new TypeError(
    `state must be 'memory' or a Redis URL (redis://host:port/db, rediss://...)${typeof state === 'string' ? '' : ` (got a ${typeof state})`}`,
  );
}

function journalSizeOf(journal: MockOptions['journal']): number | undefined {
  refuseUnknownOptions('journal', journal, ['size']);
  const size = journal?.size;
  if (size === undefined) return undefined;
  const problem = journalSizeProblem(size);
  if (problem) throw new TypeError(`journal.size ${problem}`);
  return size;
}

function latencyOf(latency: MockOptions['latency']): LatencySpec | undefined {
  if (latency === undefined || typeof latency === 'object') return latency;
  return parseLatency(String(latency));
}

function varyOf(vary: MockOptions['vary']): { seed: number } | undefined {
  if (vary === undefined) return undefined;
  const seed: unknown = (vary as { seed?: unknown } | null)?.seed;
  const problem = varySeedProblem(seed, JSON.stringify(seed) ?? String(seed));
  if (problem) throw new TypeError(`vary.seed ${problem}`);
  return { seed: seed as number };
}

/** The library's options as the app factory takes them (the CLI maps its flags onto the same). */
function appOptions(options: MockOptions): Partial<AppOptions> {
  const environment = options.environment ?? 'production';
  if (environment !== 'both' && !ENVIRONMENTS.includes(environment))
    throw new TypeError(`environment must be production, staging or both (got "${environment}")`);
  return {
    seed: options.seed,
    scale: options.scale,
    apiVersion: options.release,
    environments: environment === 'both' ? [...ENVIRONMENTS] : [environment],
    keysFile: options.keysFile,
    tiersFile: options.tiersFile,
    tierOverride: options.rateLimit,
    adminToken: options.adminToken,
    validateResponses: options.validateResponses ?? false,
    log: options.log,
    replayDir: options.replayDir,
    records:
      options.records === undefined
        ? undefined
        : { source: 'records option', families: options.records },
    vary: varyOf(options.vary),
    stateUrl: stateUrlOf(options.state),
    stateOptions: { prefix: options.statePrefix },
    journalSize: journalSizeOf(options.journal),
    faults: {
      seed: options.faultSeed ?? DEFAULT_SEED,
      latency: latencyOf(options.latency),
      random:
        typeof options.faults === 'string' ? parseRandomFaults(options.faults) : options.faults,
    },
  };
}

/**
 * The demo keys by purpose: a purpose the keys file has no key for is a getter that throws (left
 * out of `Object.keys` and JSON), so the type can say `string` and a missing key is named at once.
 */
function keysOf(byPurpose: Examples['keys']['byPurpose']): MockKeys {
  const keys = {} as Record<KeyPurpose, string>;
  for (const [purpose, example] of Object.entries(byPurpose) as [
    KeyPurpose,
    { key: string } | null,
  ][]) {
    if (example) keys[purpose] = example.key;
    else
      Object.defineProperty(keys, purpose, {
        enumerable: false,
        get() {
          throw new TypeError(
            `keys.${purpose}: the keys file has no demo key for this purpose (see examples.keys.all)`,
          );
        },
      });
  }
  return Object.freeze(keys);
}

async function handleOf(app: MockApp, origin: string, adminToken: string): Promise<MockHandle> {
  // The examples the app serves, read through the app itself: one source for both.
  const answer = await app.fetch(new Request(`${origin}${EXAMPLES_PATH}`));
  const examples = (await answer.json()) as Examples;
  const qa = qaControls({
    origin,
    adminToken,
    fetch: (request) => Promise.resolve(app.fetch(request)),
  });
  return {
    url: `${origin}${BASE_PATH}`,
    origin,
    keys: keysOf(examples.keys.byPurpose),
    examples,
    qa,
  };
}

/** The library's options with the QA controls' token settled (the caller's, else a random one). */
function withAdminToken<T extends MockOptions>(options: T): T & { adminToken: string } {
  return { ...options, adminToken: options.adminToken ?? randomUUID() };
}

/** Starts the mock on a socket (a free port unless `port` is given). */
export async function startMock(given: StartMockOptions = {}): Promise<RunningMock> {
  refuseUnknownOptions('startMock', given, START_MOCK_OPTION_NAMES);
  const options = withAdminToken(given);
  const server = await startMockServer({
    ...appOptions(options),
    port: options.port ?? 0,
    host: options.host,
  });
  try {
    return {
      ...(await handleOf(server.app, server.origin, options.adminToken)),
      close: () => server.close(),
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** The mock in process: no socket, `fetch(Request)` answers as the server would. */
export async function createMockApp(given: MockAppOptions = {}): Promise<MockAppHandle> {
  refuseUnknownOptions('createMockApp', given, MOCK_APP_OPTION_NAMES);
  const options = withAdminToken(given);
  const origin = new URL(options.origin ?? 'http://web-data.mock').origin;
  const app = await createApp({ ...appOptions(options), origin });
  return {
    ...(await handleOf(app, origin, options.adminToken)),
    fetch: async (request) => app.fetch(request),
    close: async () => {
      await Promise.all([app.state.stores.close(), app.state.records.close()]);
    },
  };
}
