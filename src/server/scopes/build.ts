/**
 * @module scopes/build
 * A scope's app: the mock's routes mounted again (mount.ts) over the parent's immutable parts (the
 * contract, validators, tiers, datasets, examples) and a mutable part of the scope's own
 * (mock-state.ts `ownParts`: a QA clock over the parent's base clock, a rate limiter, a journal,
 * a fault plan, stores, record edits over the parent's environments). Nothing the parent can
 * change is reachable from here, nor the other way round: isolation by construction.
 */
import { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import type { KeyPurpose } from '../../api/types.js';
import type { KeyRecord, KeyStore } from '../config/keys.js';
import type { AppEnv } from '../env.js';
import { ownParts, type MockParts } from '../mock-state.js';
import { mountRoutes } from '../mount.js';
import { RememberingRouter } from '../pipeline/route-memo.js';
import { RecordControl } from '../records/control.js';
import type { Stores } from '../../state/stores.js';
import type { ScopeEntry } from './registry.js';
import { sameDigest, scopeKeyDigest, scopeKeyName } from './scope-key.js';

/** A scope's app and how to free it. */
export interface ScopeApp {
  readonly app: Hono<AppEnv>;
  readonly parts: MockParts;
  close(): Promise<void>;
}

/** The demo key a purpose names, whose tier, environment and families a scope's key takes. */
export function demoKeyOf(parent: MockParts, purpose: KeyPurpose): KeyRecord | undefined {
  const name = parent.state.keyNamesByPurpose?.get(purpose);
  return name === undefined ? undefined : parent.state.keys.records.find((k) => k.name === name);
}

/** The scope's key alone: its record, found by the digest (the secret is never held). */
function scopeKeyStore(parent: KeyStore, record: KeyRecord, digest: Buffer): KeyStore {
  return {
    lookup: (secret) => (sameDigest(scopeKeyDigest(secret), digest) ? record : undefined),
    // The parent's secrets: the scrubber is the parent's, cached; the scope's own key is blanked
    // by its form (scope-key.ts `withScopeKeysBlanked`).
    secrets: parent.secrets,
    records: [record],
    demoSecret: () => undefined,
  };
}

/**
 * The scope's parts. `storesFor` makes its stores over its own memory stores (memory: those; on
 * Redis: Redis stores under the scope's key prefix).
 */
export async function buildScopeParts(
  parent: MockParts,
  entry: ScopeEntry,
  storesFor: (own: ReturnType<typeof ownParts>, entry: ScopeEntry) => Promise<Stores> | Stores = (
    own,
  ) => own.local,
): Promise<MockParts> {
  const { state } = parent;
  const demo = demoKeyOf(parent, entry.purpose);
  if (!demo) throw new Error(`no demo key for purpose ${entry.purpose}`);
  const keyName = scopeKeyName(entry.id);
  const record: KeyRecord = { ...demo, name: keyName, demo: false };
  const own = ownParts(state.options, parent.tiers);
  const stores = await storesFor(own, entry);
  const records = RecordControl.create(stores.records, {
    contract: state.contract,
    validators: state.validators,
    apis: state.apis,
  });
  return {
    ...parent,
    journal: own.journal,
    state: {
      ...state,
      keys: scopeKeyStore(state.keys, record, entry.digest),
      clock: own.clock,
      faults: own.faults,
      stores,
      records,
      keyNamesByPurpose: new Map([[entry.purpose, keyName]]),
      scopes: undefined,
    },
  };
}

/** The scope's app: the mock's routes over the scope's parts (no scopes of its own). */
export async function buildScopeApp(
  parent: MockParts,
  entry: ScopeEntry,
  storesFor?: Parameters<typeof buildScopeParts>[2],
): Promise<ScopeApp> {
  const parts = await buildScopeParts(parent, entry, storesFor);
  // The trie router outright: the mock's routes do not fit the regular-expression router, which
  // the default tries first on the first request (most of a scope's first answer, route-memo.ts).
  const app = new Hono<AppEnv>({ router: new RememberingRouter(new TrieRouter()) });
  mountRoutes(app, parts);
  return {
    app,
    parts,
    close: async () => {
      await Promise.all([parts.state.stores.close(), parts.state.records.close()]);
    },
  };
}
