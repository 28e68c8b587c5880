/**
 * @module keys
 * The API keys the mock accepts, read from a JSON file (`config/keys.json` by default). Secrets
 * are kept only as SHA-256 digests and compared in constant time; nothing here logs or returns one.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import type { EnvironmentName } from '../../api/types.js';
import { packagePath } from '../../package-root.js';
import { checkAgainstSchema, ConfigFileError, fileSchema, readJsonFile } from './config-file.js';

export const DEFAULT_KEYS_FILE = packagePath('config', 'keys.json');

/** The environments (the library's `environment`, defined in api/types.ts). */
export type { EnvironmentName };
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

/** Secrets travel in the `x-api-key` header: visible ASCII, no spaces, bounded. */
const SECRET_PATTERN = '^[\\x21-\\x7e]+$';
const MAX_KEYS = 10_000;

/** The keys file's schema (checked with the project's ajv before anything else is read). */
export const KEYS_FILE_SCHEMA = fileSchema('keys', {
  type: 'array',
  maxItems: MAX_KEYS,
  items: {
    type: 'object',
    required: ['name', 'secret', 'environment', 'scopes', 'tier'],
    additionalProperties: false,
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._-]+$' },
      secret: { type: 'string', minLength: 1, maxLength: 512, pattern: SECRET_PATTERN },
      environment: { enum: [...ENVIRONMENTS] },
      scopes: { type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1 } },
      tier: { type: 'string', minLength: 1 },
      expiresAt: { type: 'string', format: 'date-time' },
      demo: { type: 'boolean' },
      purpose: { type: 'string', maxLength: 500 },
    },
  },
});

/** `keys[2] (demo-x), field secret:` for a pointer into the file; never a value but the entry's public name. */
function describeKeyPointer(entries: unknown): (pointer: string) => string {
  return (pointer) => {
    const [, index, ...field] = pointer.split('/').slice(1);
    if (index === undefined) return pointer ? `${pointer.slice(1)}:` : '(file):';
    const entry = Array.isArray(entries)
      ? (entries[Number(index)] as { name?: unknown } | undefined)
      : undefined;
    const name =
      typeof entry?.name === 'string' && /^[A-Za-z0-9._-]{1,100}$/.test(entry.name)
        ? entry.name
        : 'unnamed';
    return `keys[${index}] (${name})${field.length ? `, field ${field.join('/')}` : ''}:`;
  };
}

export interface KeyStore {
  /** The record whose secret equals `secret`, or undefined. Constant time in the secret's content. */
  lookup(secret: string): KeyRecord | undefined;
  /** Every key's secret, for the one scrubber that blanks them in the journal and the log (src/redaction.ts). */
  readonly secrets: readonly string[];
  readonly records: readonly KeyRecord[];
  /** Secrets of demo keys only (they are public: the README prints them). */
  demoSecret(name: string): string | undefined;
}

/** One-shot SHA-256 (no Hash object per request, about half the cost of `createHash`). */
const digest = (secret: string): Buffer => hash('sha256', secret, 'buffer');

export interface KeyFileChecks {
  /** Tier names the tiers file defines. */
  tiers?: ReadonlySet<string>;
  /** Endpoint families (the document's tags) a scope may name. */
  families?: ReadonlySet<string>;
}

/**
 * Parses and checks a keys file: the schema, then tiers and scopes that exist, no two entries with
 * one name (they would share rate-limit counters) or one secret (one would silently shadow the
 * other). Throws a ConfigFileError naming the file, the entry and the field, never a secret.
 */
export function loadKeys(file = DEFAULT_KEYS_FILE, checks: KeyFileChecks = {}): KeyStore {
  const parsed = readJsonFile(file) as { keys?: unknown };
  checkAgainstSchema(file, parsed, KEYS_FILE_SCHEMA, describeKeyPointer(parsed?.keys));
  const list = (parsed as { keys: KeyFileEntry[] }).keys;
  const problems: string[] = [];
  const byName = new Map<string, number>();
  const bySecret = new Map<string, number>();
  const entries = list.map((entry, index) => {
    const where = `${file}: keys[${index}] (${entry.name})`;
    if (checks.tiers && !checks.tiers.has(entry.tier))
      problems.push(
        `${where}, field tier: unknown tier "${entry.tier}" (tiers: ${[...checks.tiers].join(', ')})`,
      );
    for (const scope of entry.scopes) {
      if (checks.families && !checks.families.has(scope))
        problems.push(
          `${where}, field scopes: unknown family "${scope}" (families: ${[...checks.families].join(', ')})`,
        );
    }
    const seenName = byName.get(entry.name);
    if (seenName !== undefined)
      problems.push(
        `${where}, field name: "${entry.name}" is also the name of keys[${seenName}]; names must be unique (rate limits are counted per name)`,
      );
    else byName.set(entry.name, index);
    const secretDigest = digest(entry.secret);
    const seenSecret = bySecret.get(secretDigest.toString('hex'));
    if (seenSecret !== undefined)
      problems.push(
        `${where}, field secret: the same secret as keys[${seenSecret}] (${list[seenSecret].name}); secrets must be unique`,
      );
    else bySecret.set(secretDigest.toString('hex'), index);
    const record: KeyRecord = {
      name: entry.name,
      environment: entry.environment,
      scopes: new Set(entry.scopes),
      tier: entry.tier,
      expiresAt: entry.expiresAt === undefined ? undefined : Date.parse(entry.expiresAt),
      demo: entry.demo === true,
      purpose: entry.purpose ?? '',
    };
    return {
      record,
      digest: secretDigest,
      demoSecret: entry.demo === true ? entry.secret : undefined,
    };
  });
  if (problems.length > 0) throw new ConfigFileError(problems.join('\n'));
  // Keyed by the digest's bytes as a binary string (cheaper to make than hex, on every request).
  const byDigest = new Map(entries.map((e) => [e.digest.toString('latin1'), e]));
  function lookup(secret: string): KeyRecord | undefined {
    // The map is keyed by a digest the caller cannot steer byte by byte; the final comparison
    // is constant time all the same.
    const presented = digest(secret);
    const entry = byDigest.get(presented.toString('latin1'));
    return entry && timingSafeEqual(entry.digest, presented) ? entry.record : undefined;
  }
  return {
    records: entries.map((e) => e.record),
    lookup,
    secrets: list.map((entry) => entry.secret),
    demoSecret(name) {
      return entries.find((e) => e.record.name === name)?.demoSecret;
    },
  };
}
