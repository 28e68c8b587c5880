/**
 * @module tiers
 * Rate-limit tiers (the source names the kinds, not the numbers: see DECISIONS.md). Read from
 * `fixtures/tiers.json` or a file given with `--tiers`; windows are in seconds so QA can shrink them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DEFAULT_TIERS_FILE = fileURLToPath(new URL('../../fixtures/tiers.json', import.meta.url));

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

const FIELDS: (keyof Tier)[] = ['requestsPerMinute', 'requestsPerHour', 'concurrentConnections', 'bytesPerWindow', 'minuteWindowSeconds', 'hourWindowSeconds', 'transferWindowSeconds'];

export function loadTiers(file = DEFAULT_TIERS_FILE): Map<string, Tier> {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { tiers?: Record<string, Partial<Tier>> };
  if (!parsed.tiers || typeof parsed.tiers !== 'object') throw new Error(`${file}: expected {"tiers": {...}}`);
  const tiers = new Map<string, Tier>();
  for (const [name, tier] of Object.entries(parsed.tiers)) {
    for (const field of FIELDS) {
      const value = tier[field];
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error(`${file}: tiers.${name}.${field} must be a positive number`);
    }
    tiers.set(name, tier as Tier);
  }
  return tiers;
}

/** Applies `--rate-limit` style overrides (e.g. `{requestsPerMinute: 5, minuteWindowSeconds: 10}`) to every tier. */
export function overrideTiers(tiers: Map<string, Tier>, override: Partial<Tier>): Map<string, Tier> {
  return new Map([...tiers].map(([name, tier]) => [name, { ...tier, ...override }]));
}
