/**
 * @module mock-state
 * The first half of `createApp`: everything the mock is made of, from its options: the contract
 * and its validators, tiers and keys, the clock, the rate limiter, the journal, the fault plan,
 * the store (memory, or Redis when asked), one dataset per environment (with the records given at
 * start laid over it), the record edits of the tests, and the examples that work
 * against them. Modules only some options need (the Redis store, recorded responses) load here,
 * on demand.
 */
import { FIXED_ORIGIN, hrefOriginFollowingHost } from './pipeline/href-origin.js';
import type { MiddlewareHandler } from 'hono';
import {
  createValidators,
  loadContract,
  type Contract,
  type Validators,
} from '../contract/index.js';
import { generateDataset } from '../dataset/generate.js';
import { AdjustableClock } from '../state/clock/clock.js';
import { basePathFor, createApiContext, type ApiContext } from './context.js';
import type { AppEnv } from './env.js';
import { buildExamples, type Examples } from './examples.js';
import { handlers } from './handlers/index.js';
import { successHeaders } from './pipeline/dispatch.js';
import { loadKeys, type KeyStore } from './config/keys.js';
import { Journal } from './pipeline/request-log.js';
import { FailedAttempts } from './admin/admin-guard.js';
import { resolveOptions, type AppOptions } from './options.js';
import { RateLimiter } from '../state/limits/rate-limiter.js';
import { loadTiers, overrideTiers, type Tier } from './config/tiers.js';
import { FaultPlan } from './faults/fault-plan.js';
import { RecordControl } from './records/control.js';
import { withStartRecords } from './records/seed.js';
import { MemoryStores } from '../state/memory.js';
import type { Stores } from '../state/stores.js';

/** What the app is made of, for the CLI banner, admin endpoints and tests. */
export interface MockState {
  options: AppOptions;
  contract: Contract;
  validators: Validators;
  keys: KeyStore;
  /** The app's time: the QA clock, which follows the store's offset. */
  clock: AdjustableClock;
  /** The seeded random faults and latency (`--faults`, `--latency`); armed faults live in the store. */
  faults: FaultPlan;
  /**
   * The one place the mutable state lives, one store per concern (rate-limit windows, armed
   * faults, stubs, the journal, the clock offset, the record edits): this process's memory, or
   * Redis shared by a fleet (src/state/).
   */
  stores: Stores;
  /** Each environment as built at start (the seed's data); as served with the record edits: `records.served`. */
  apis: readonly ApiContext[];
  /** The record edits of the tests (records/control.ts). */
  records: RecordControl;
  /** Each purpose's demo key name (`fullAccess` -> its name): a QA match may name a key by purpose. */
  keyNamesByPurpose?: ReadonlyMap<string, string>;
  /** The scopes (scopes/), when the mock has QA controls; closing the mock frees them. A scope's own state has none. */
  scopes?: { close(): Promise<void> };
}

/** The state, and what mounting the routes needs besides. */
export interface MockParts {
  state: MockState;
  tiers: Map<string, Tier>;
  /** What `GET /examples.json` serves: inputs that work on this very dataset and keys. */
  examples: Examples;
  /** Serves recorded live responses, when `replayDir` is set. */
  replay: MiddlewareHandler<AppEnv> | undefined;
  /** This process's journal: every store clears it with its own, so its epoch marks each reset. */
  journal: Journal;
  /**
   * Wrong admin tokens counted per client, one count for the mock's controls and every scope's
   * (a scope's parts take the parent's): a scope's path must not be 20 more guesses a minute.
   */
  adminAttempts: FailedAttempts;
}

export async function buildState(partial: Partial<AppOptions> = {}): Promise<MockParts> {
  const options = resolveOptions(partial);
  const contract = await loadContract({ release: options.apiVersion });
  const unhandled = contract.operations.filter((op) => !handlers[op.operationId]);
  if (unhandled.length > 0)
    throw new Error(`no handler for: ${unhandled.map((op) => op.operationId).join(', ')}`);
  const validators = createValidators(contract);
  const tiers = overrideTiers(loadTiers(options.tiersFile), options.tierOverride);
  // Scopes name endpoint families: the document's tags (all of them, whichever release is served).
  const families = new Set((contract.document.tags ?? []).map((tag) => tag.name));
  const keys = loadKeys(options.keysFile, {
    tiers: new Set(tiers.keys()),
    families: families.size > 0 ? families : undefined,
  });
  const { clock, journal, faults, local } = ownParts(options, tiers);
  // Before the store: a recordings folder that cannot be read must not leave a Redis connection open.
  const replay = await replayFor(options);
  const stores = await storesFor(options, { local, tiers, clock });
  const apis = options.environments.map((environment) => {
    const basePath = basePathFor(environment, options.environments);
    const dataset =
      options.datasets[environment] ??
      generateDataset({
        seed: options.seed,
        scale: options.scale,
        baseUrl: `${options.origin}${basePath}`,
      });
    const seed = options.records
      ? withStartRecords(dataset, options.records, contract, validators)
      : dataset;
    const hrefOrigin = options.hrefsFollowHost
      ? hrefOriginFollowingHost(options.origin, [basePath])
      : FIXED_ORIGIN;
    return createApiContext(environment, basePath, seed, contract, hrefOrigin);
  });
  const records = RecordControl.create(stores.records, { contract, validators, apis });
  const examples = buildExamples({
    contract,
    api: apis[0],
    keys,
    tiers,
    seed: options.seed,
    scale: options.scale,
    now: clock.now(),
  });
  const state = {
    options,
    contract,
    validators,
    keys,
    clock,
    faults,
    stores,
    apis,
    records,
    keyNamesByPurpose: new Map(
      Object.entries(examples.keys.byPurpose).flatMap(([purpose, key]) =>
        key ? [[purpose, key.name] as const] : [],
      ),
    ),
  };
  return { state, tiers, examples, replay, journal, adminAttempts: new FailedAttempts() };
}

/**
 * What each mock, and each scope of one (src/server/scopes/), has of its own: the QA clock over
 * the base clock, the rate limiter, the journal, the seeded fault plan, and this process's
 * stores over them. Everything else a mock is made of is immutable and shared.
 */
export function ownParts(options: AppOptions, tiers: Map<string, Tier>) {
  const clock = new AdjustableClock(options.clock);
  const limiter = new RateLimiter(tiers, clock);
  const journal = new Journal(options.journalSize);
  const faults = new FaultPlan(options.faults);
  const local = new MemoryStores({ limiter, journal, clock });
  return { clock, limiter, journal, faults, local };
}

/** Memory, or Redis (ioredis loads only then) when `stateUrl` is set. */
async function storesFor(
  options: AppOptions,
  shared: { local: MemoryStores; tiers: Map<string, Tier>; clock: AdjustableClock },
): Promise<Stores> {
  if (!options.stateUrl) return shared.local;
  const { RedisStores } = await import('../state/redis.js');
  return RedisStores.connect(options.stateUrl, shared, {
    ...options.stateOptions,
    instanceId: options.instanceId,
  });
}

async function replayFor(options: AppOptions): Promise<MiddlewareHandler<AppEnv> | undefined> {
  if (!options.replayDir) return undefined;
  const { createReplayMiddleware } = await import('../recordings/index.js');
  return createReplayMiddleware<AppEnv>(options.replayDir, {
    // The mock's own counters for this key, never the live ones recorded.
    headers: successHeaders,
    // The body reader has read the body before the replay step (so have the stubs and faults).
    bodyRead: (c) => {
      const text = c.get('bodyText');
      return text === undefined ? undefined : new TextEncoder().encode(text);
    },
  });
}
