/**
 * @module config-files.test
 * Keys and tiers files are checked against their schemas: every message names the file, the entry
 * and the field, and never prints a secret (not even one in the wrong place or broken JSON around
 * it); two keys with one name or one secret are refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadKeys } from './keys.js';
import { loadTiers } from './tiers.js';

const dir = mkdtempSync(join(tmpdir(), 'mock-config-'));
let n = 0;
function file(content: unknown): string {
  const path = join(dir, `file-${++n}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}
const key = (over: Record<string, unknown> = {}) => ({
  name: 'k1',
  secret: 'secret-value-1',
  environment: 'production',
  scopes: ['products'],
  tier: 'standard',
  ...over,
});
const tiers = new Set(['standard']);
const families = new Set(['products', 'documents']);
/** The error message of loading `path`. */
function failure(load: () => unknown): string {
  try {
    load();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
}

describe('keys file', () => {
  it('names file, entry and field of a mistyped secret without printing it', () => {
    const path = file({ keys: [key(), key({ name: 'k2', secret: 12345 })] });
    const message = failure(() => loadKeys(path, { tiers, families }));
    expect(message).toContain(path);
    expect(message).toContain('keys[1] (k2), field secret');
    expect(message).toContain('type: string');
    expect(message).not.toContain('12345');
  });

  it('reports every problem, each with its entry and field', () => {
    const path = file({
      keys: [
        key({ environment: 'prod' }),
        key({ name: 'k2', secret: 'has space', extra: 1 }),
        { name: 'k3' },
      ],
    });
    const message = failure(() => loadKeys(path, { tiers, families }));
    expect(message).toContain('keys[0] (k1), field environment');
    expect(message).toContain('keys[1] (k2), field secret');
    expect(message).toContain('keys[1] (k2), field extra');
    expect(message).toContain('keys[2] (k3), field tier');
    expect(message).not.toContain('has space');
  });

  it('refuses two entries with one name, and two with one secret, never printing the secret', () => {
    const names = failure(() =>
      loadKeys(file({ keys: [key(), key({ secret: 'other-secret-2' })] }), { tiers, families }),
    );
    expect(names).toMatch(/keys\[1\] \(k1\), field name: .*keys\[0\]/);
    const secrets = failure(() =>
      loadKeys(file({ keys: [key(), key({ name: 'k2' })] }), { tiers, families }),
    );
    expect(secrets).toMatch(/keys\[1\] \(k2\), field secret: the same secret as keys\[0\] \(k1\)/);
    expect(secrets).not.toContain('secret-value-1');
  });

  it('refuses unknown tiers and scopes by name', () => {
    const message = failure(() =>
      loadKeys(file({ keys: [key({ tier: 'gold', scopes: ['product'] })] }), { tiers, families }),
    );
    expect(message).toContain('field tier: unknown tier "gold"');
    expect(message).toContain('field scopes: unknown family "product"');
  });

  it('says where JSON is broken without quoting the text around it', () => {
    const path = file(
      '{"keys": [{"name": "k1", "secret": "secret-value-1" "environment": "production"}]}',
    );
    const message = failure(() => loadKeys(path));
    expect(message).toContain(`${path}: not valid JSON`);
    expect(message).not.toContain('secret-value-1');
  });

  it('refuses a member named twice in one entry (JSON would keep the last secret silently), never printing either', () => {
    const path = file(
      '{"keys": [{"name": "k1", "secret": "first-secret-1", "secret": "second-secret-2", "environment": "production", "scopes": ["products"], "tier": "standard"}]}',
    );
    const message = failure(() => loadKeys(path, { tiers, families }));
    expect(message).toMatch(
      new RegExp(
        `${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: "secret" appears twice in one object \\(at line 1, column \\d+\\)`,
      ),
    );
    expect(message).not.toContain('first-secret-1');
    expect(message).not.toContain('second-secret-2');
  });

  it('accepts the bundled demo keys', () => {
    expect(loadKeys().records.length).toBeGreaterThan(0);
  });
});

describe('tiers file', () => {
  const tier = {
    requestsPerMinute: 10,
    requestsPerHour: 100,
    concurrentConnections: 2,
    bytesPerWindow: 1000,
    minuteWindowSeconds: 60,
    hourWindowSeconds: 3600,
    transferWindowSeconds: 3600,
  };
  it('names file, tier and field', () => {
    const path = file({
      tiers: {
        trial: { ...tier, requestsPerMinute: '10', bogus: 1 },
        gold: { ...tier, hourWindowSeconds: 0 },
      },
    });
    const message = failure(() => loadTiers(path));
    expect(message).toContain(`${path}: tiers.trial, field requestsPerMinute`);
    expect(message).toContain('tiers.trial, field bogus');
    expect(message).toContain('tiers.gold, field hourWindowSeconds');
  });
  it('names a missing field', () => {
    const { concurrentConnections: _, ...rest } = tier;
    expect(failure(() => loadTiers(file({ tiers: { trial: rest } })))).toContain(
      'tiers.trial, field concurrentConnections',
    );
  });
  it('refuses two tiers with one name (JSON would keep the last silently)', () => {
    const text = `{"tiers": {"trial": ${JSON.stringify(tier)},\n  "trial": ${JSON.stringify({ ...tier, requestsPerMinute: 99 })}}}`;
    expect(failure(() => loadTiers(file(text)))).toMatch(
      /: "trial" appears twice in one object \(at line 2, column 3\)/,
    );
  });

  it('accepts the bundled tiers', () => {
    expect(loadTiers().size).toBeGreaterThan(0);
  });
});
