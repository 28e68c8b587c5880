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
import { createApp, type MockApp } from '../server/app.js';
import { EXAMPLES_PATH, type Examples, type KeyPurpose } from '../server/examples.js';
import { ENVIRONMENTS } from '../server/config/keys.js';
import { startMockServer } from '../server/listen.js';
import { DEFAULT_SEED, type AppOptions } from '../server/options.js';
import { parseLatency, parseRandomFaults, type LatencySpec } from '../server/faults/actions.js';
import { varySeedProblem } from '../server/pipeline/variation.js';
import { journalSizeProblem } from '../state/journal/journal.js';
import { refuseUnknownOptions } from './option-names.js';
import { MAX_SCOPES_RANGE, rangeProblem, SCOPE_TTL_RANGE } from '../server/scopes/limits.js';
import { qaControls } from './qa.js';
import type {
  MockAppHandle,
  MockAppOptions,
  MockHandle,
  MockKeys,
  MockOptions,
  RunningMock,
  StartMockOptions,
} from './types.js';

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
  'scopeTtlSeconds',
  'maxScopes',
] as const satisfies readonly (keyof MockOptions)[];
/** Compile-time: a member added to MockOptions and not to the list fails here. */
const everyMockOptionNamed: Record<
  Exclude<keyof MockOptions, (typeof MOCK_OPTION_NAMES)[number]>,
  never
> = {};
void everyMockOptionNamed;

const START_MOCK_OPTION_NAMES = [
  ...MOCK_OPTION_NAMES,
  'port',
  'host',
] as const satisfies readonly (keyof StartMockOptions)[];

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

/** An integer option within its range, or undefined for the default; a TypeError otherwise. */
function inRange(
  name: string,
  value: number | undefined,
  range: { min: number; max: number },
): number | undefined {
  if (value === undefined) return undefined;
  const problem = rangeProblem(value, range);
  if (problem) throw new TypeError(`${name} ${problem}`);
  return value;
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
    scopeTtlSeconds: inRange('scopeTtlSeconds', options.scopeTtlSeconds, SCOPE_TTL_RANGE),
    maxScopes: inRange('maxScopes', options.maxScopes, MAX_SCOPES_RANGE),
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
      await app.state.scopes?.close();
      await Promise.all([app.state.stores.close(), app.state.records.close()]);
    },
  };
}
