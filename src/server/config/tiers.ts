/**
 * @module tiers
 * Rate-limit tiers (the source names the kinds, not the numbers: see DECISIONS.md). Read from
 * `config/tiers.json` or a file given with `--tiers`; windows are in seconds so QA can shrink them.
 */
import { packagePath } from '../../package-root.js';
import { compileSchema } from '../../contract/index.js';
import { checkAgainstSchema, fileSchema, readJsonFile } from './config-file.js';

export const DEFAULT_TIERS_FILE = packagePath('config', 'tiers.json');

import type { Tier } from '../../state/limits/rate-limiter.js';

export type { Tier };

/** The fields every tier must give, in the order the docs list them (`--rate-limit` takes the same names). */
export const TIER_FIELDS: readonly (keyof Tier)[] = [
  'requestsPerMinute',
  'requestsPerHour',
  'concurrentConnections',
  'bytesPerWindow',
  'minuteWindowSeconds',
  'hourWindowSeconds',
  'transferWindowSeconds',
];
/** Counts are whole numbers; windows may be fractions of a second. Bounded so the arithmetic stays exact. */
const COUNT = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const SECONDS = { type: 'number', exclusiveMinimum: 0, maximum: 366 * 24 * 3600 };
const FIELD_SCHEMAS: Record<keyof Tier, object> = {
  requestsPerMinute: COUNT,
  requestsPerHour: COUNT,
  concurrentConnections: COUNT,
  bytesPerWindow: COUNT,
  minuteWindowSeconds: SECONDS,
  hourWindowSeconds: SECONDS,
  transferWindowSeconds: SECONDS,
};

/** The tiers file's schema (checked with the project's ajv). */
export const TIERS_FILE_SCHEMA = fileSchema('tiers', {
  type: 'object',
  minProperties: 1,
  propertyNames: { pattern: '^[A-Za-z0-9._-]{1,100}$' },
  additionalProperties: {
    type: 'object',
    required: [...TIER_FIELDS],
    additionalProperties: false,
    properties: FIELD_SCHEMAS,
  },
});

/** `tiers.trial, field requestsPerMinute:` for a pointer into the file. */
function describeTierPointer(pointer: string): string {
  const [, name, ...field] = pointer.split('/').slice(1);
  if (name === undefined) return pointer ? `${pointer.slice(1)}:` : '(file):';
  return `tiers.${name}${field.length ? `, field ${field.join('/')}` : ''}:`;
}

/** Parses and checks a tiers file; throws a ConfigFileError naming the file, the tier and the field. */
export function loadTiers(file = DEFAULT_TIERS_FILE): Map<string, Tier> {
  const parsed = readJsonFile(file);
  checkAgainstSchema(file, parsed, TIERS_FILE_SCHEMA, describeTierPointer);
  return new Map(Object.entries((parsed as { tiers: Record<string, Tier> }).tiers));
}

/** What is wrong with a `--rate-limit` override, by the tiers file's own field rules (`field message`). */
export function tierOverrideProblems(override: Record<string, number>): string[] {
  return compileSchema({ type: 'object', properties: FIELD_SCHEMAS })(override).map(
    (p) => `${p.pointer.slice(1)} ${p.message}`,
  );
}

/** Applies `--rate-limit` style overrides (e.g. `{requestsPerMinute: 5, minuteWindowSeconds: 10}`) to every tier. */
export function overrideTiers(
  tiers: Map<string, Tier>,
  override: Partial<Tier>,
): Map<string, Tier> {
  return new Map([...tiers].map(([name, tier]) => [name, { ...tier, ...override }]));
}
