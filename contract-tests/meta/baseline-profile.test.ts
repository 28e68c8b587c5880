/**
 * @module meta/baseline-profile.test
 * Where `--baseline` finds what the service did then: the profile beside the report (or the file
 * the report names), inside the report, or a profile given directly; a report without one still
 * works (findings only); a profile beside it that does not read is an error naming that file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyProfile, serializeProfile, type Drift } from '../../src/evidence/index.js';
import { readBaselineRun } from '../../src/suite/support/baseline.js';
import { driftFindings } from '../../src/suite/support/evidence.js';

const report = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ passed: true, findings: [], ...extra });

describe('readBaselineRun', () => {
  const profile = { ...emptyProfile(), count: 3 };

  it('takes the profile beside the report, inside it, or given directly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baseline-'));
    writeFileSync(join(dir, 'contract-report.json'), report());
    expect(readBaselineRun(join(dir, 'contract-report.json'))).toEqual({ findings: [] });
    writeFileSync(join(dir, 'profile.json'), serializeProfile(profile));
    expect(readBaselineRun(join(dir, 'contract-report.json'))).toEqual({
      findings: [],
      profile,
      profileFrom: join(dir, 'profile.json'),
    });
    writeFileSync(join(dir, 'named.json'), report({ profile: 'other.json' }));
    writeFileSync(join(dir, 'other.json'), serializeProfile({ ...profile, count: 5 }));
    expect(readBaselineRun(join(dir, 'named.json')).profile?.count).toBe(5);
    writeFileSync(join(dir, 'inside.json'), report({ profile }));
    expect(readBaselineRun(join(dir, 'inside.json')).profileFrom).toMatch(
      /inside\.json \(inside\)$/,
    );
    expect(readBaselineRun(join(dir, 'profile.json'))).toEqual({
      profile,
      profileFrom: join(dir, 'profile.json'),
    });
  });

  it('a profile beside the report that does not read is an error naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baseline-'));
    writeFileSync(join(dir, 'contract-report.json'), report());
    writeFileSync(join(dir, 'profile.json'), '{"format": "web-data-profile/1"}');
    expect(() => readBaselineRun(join(dir, 'contract-report.json'))).toThrow(
      `${join(dir, 'profile.json')}: not a profile`,
    );
    writeFileSync(join(dir, 'x.json'), '{"passed": true}');
    expect(() => readBaselineRun(join(dir, 'x.json'))).toThrow(
      /not a contract report .* nor a profile/,
    );
  });

  it('a "profile" naming a file outside the report\'s folder is refused, not read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baseline-'));
    for (const outside of ['../../../../etc/passwd', 'sub/../../x.json', '/etc/passwd']) {
      writeFileSync(join(dir, 'r.json'), JSON.stringify({ findings: [], profile: outside }));
      expect(() => readBaselineRun(join(dir, 'r.json'))).toThrow(/its "profile" ".*" is outside /);
    }
  });
});

describe('driftFindings', () => {
  const drift = (example: string): Drift => ({
    severity: 'failure',
    kind: 'field-removed',
    operationId: 'searchProducts',
    status: '200',
    pointer: '/data/*/nid',
    before: 'carried by 20 of 20',
    after: 'carried by 0 of 20',
    message: 'a field every record carried is gone',
    example,
  });

  it('repeats the request with its body, so a POST drift can be reproduced from the log', () => {
    const [finding] = driftFindings(
      [drift('POST /products/search {"limit":2,"q":"a b"}')],
      'https://target.example/web-data/v1',
    );
    expect(finding.curl).toBe(
      `curl -sS -i -X POST 'https://target.example/web-data/v1/products/search' -H "x-api-key: $API_KEY" -H 'content-type: application/json' --data-binary '{"limit":2,"q":"a b"}'`,
    );
    const [get] = driftFindings([drift('GET /documents?limit=2')], 'https://t.example');
    expect(get.curl).toBe(
      `curl -sS -i 'https://t.example/documents?limit=2' -H "x-api-key: $API_KEY"`,
    );
  });
});
