/**
 * @module keys
 * The API keys the mock accepts, read from a JSON file (`fixtures/keys.json` by default). Secrets
 * are kept only as SHA-256 digests and compared in constant time; nothing here logs or returns one.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DEFAULT_KEYS_FILE = fileURLToPath(new URL('../../fixtures/keys.json', import.meta.url));

export type EnvironmentName = 'production' | 'staging';
export const ENVIRONMENTS: readonly EnvironmentName[] = ['production', 'staging'];

/** A key as the rest of the mock sees it: everything but the secret. */
export interface KeyRecord {
  /** Stable, public name (logs and reports use this, never the secret). */
  name: string;
  environment: EnvironmentName;
  /** Endpoint families (the document's operation tags) the key may call. */
  scopes: ReadonlySet<string>;
  tier: string;
  /** Epoch ms after which the key is invalid. */
  expiresAt?: number;
  demo: boolean;
  purpose: string;
}

interface KeyFileEntry {
  name: string;
  secret: string;
  environment: EnvironmentName;
  scopes: string[];
  tier: string;
  expiresAt?: string;
  demo?: boolean;
  purpose?: string;
}

export interface KeyStore {
  /** The record whose secret equals `secret`, or undefined. Constant time in the secret's content. */
  lookup(secret: string): KeyRecord | undefined;
  readonly records: readonly KeyRecord[];
  /** Secrets of demo keys only (they are public: the README prints them). */
  demoSecret(name: string): string | undefined;
}

/** One-shot SHA-256 (no Hash object per request, about half the cost of `createHash`). */
const digest = (secret: string): Buffer => hash('sha256', secret, 'buffer');

/** Parses and checks a keys file; throws a message naming the bad entry. */
export function loadKeys(file = DEFAULT_KEYS_FILE, tiers?: ReadonlySet<string>): KeyStore {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { keys?: KeyFileEntry[] };
  if (!Array.isArray(parsed.keys)) throw new Error(`${file}: expected {"keys": [...]}`);
  const entries = parsed.keys.map((entry, index) => {
    const where = `${file}: keys[${index}] (${entry.name ?? 'unnamed'})`;
    if (!entry.name || !entry.secret) throw new Error(`${where}: name and secret are required`);
    if (!['production', 'staging'].includes(entry.environment)) throw new Error(`${where}: environment must be production or staging`);
    if (tiers && !tiers.has(entry.tier)) throw new Error(`${where}: unknown tier "${entry.tier}"`);
    const expiresAt = entry.expiresAt === undefined ? undefined : Date.parse(entry.expiresAt);
    if (expiresAt !== undefined && Number.isNaN(expiresAt)) throw new Error(`${where}: expiresAt is not a date`);
    const record: KeyRecord = {
      name: entry.name,
      environment: entry.environment,
      scopes: new Set(entry.scopes),
      tier: entry.tier,
      expiresAt,
      demo: entry.demo === true,
      purpose: entry.purpose ?? '',
    };
    return { record, digest: digest(entry.secret), demoSecret: entry.demo === true ? entry.secret : undefined };
  });
  const byDigest = new Map(entries.map((e) => [e.digest.toString('hex'), e]));
  return {
    records: entries.map((e) => e.record),
    lookup(secret) {
      // The map is keyed by a digest the caller cannot steer byte by byte; the final comparison
      // is constant time all the same.
      const presented = digest(secret);
      const entry = byDigest.get(presented.toString('hex'));
      return entry && timingSafeEqual(entry.digest, presented) ? entry.record : undefined;
    },
    demoSecret(name) {
      return entries.find((e) => e.record.name === name)?.demoSecret;
    },
  };
}
