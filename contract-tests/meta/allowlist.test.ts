/**
 * @module meta/allowlist.test
 * The suite's reading of `CONTRACT_ALLOWLIST` (a YAML or JSON list, or `{ allow: [...] }`). The
 * walker and the pattern matching themselves are tested in src/contract/undeclared.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAllowlist } from '../../src/suite/support/allowlist.js';

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'contract-allowlist-')), name);
  writeFileSync(path, text);
  return path;
}

describe('loadAllowlist', () => {
  it('allows nothing without a file', () => {
    expect(loadAllowlist(undefined)('/data/0/newField')).toBe(false);
  });

  it('reads a YAML list and an { allow } object, with * and ** patterns', () => {
    const list = loadAllowlist(file('allow.yaml', '- /data/*/newField\n- /**/legacy\n'));
    expect(list('/data/3/newField')).toBe(true);
    expect(list('/data/3/x/newField')).toBe(false);
    expect(list('/a/b/legacy')).toBe(true);
    const object = loadAllowlist(file('allow.json', JSON.stringify({ allow: ['/meta'] })));
    expect(object('/meta')).toBe(true);
    expect(object('/data/0/newField')).toBe(false);
  });

  it('refuses a file that is not a list of pointer patterns, naming the file', () => {
    const bad = file('bad.yaml', '- data/*/newField\n');
    expect(() => loadAllowlist(bad)).toThrow(`CONTRACT_ALLOWLIST ${bad}`);
    expect(() => loadAllowlist(file('bad2.yaml', 'allow: 3\n'))).toThrow(
      /expected a list of JSON pointer patterns/,
    );
  });
});
