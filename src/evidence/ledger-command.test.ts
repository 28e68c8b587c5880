/**
 * @module evidence/ledger-command.test
 * `web-data-evidence` against what a user or a CI job may hand it: a command named like an
 * inherited property, an output that is a file, a folder or broken document as `--spec`, a
 * device or a FIFO as `--profile` (one line, exit 2, no wait), a symlink where `evidence.md` goes
 * (its target untouched) and a crafted earlier night in `--history` (skipped, named, no script).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyProfile, serializeProfile } from './profile.js';

const BIN = fileURLToPath(new URL('../../bin/web-data-evidence.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'evidence-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const profile = join(dir, 'profile.json');
writeFileSync(profile, serializeProfile(emptyProfile()));

/** The command's answer; a run that waits (a FIFO opened for reading) is killed after 30 s. */
const run = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 30_000 });

/** Exit 2 with one line naming what was wrong, and no stack trace. */
function expectUsage(result: ReturnType<typeof run>, names: RegExp): void {
  expect(result.status).toBe(2);
  expect(result.stderr).toMatch(/^web-data-evidence: [^\n]*\n$/);
  expect(result.stderr).toMatch(names);
}

describe('web-data-evidence usage errors', () => {
  it('a command named like an inherited property is unknown', () => {
    expectUsage(run(['constructor']), /unknown command "constructor"/);
    expectUsage(run(['toString']), /unknown command "toString"/);
  });

  it('an existing file as -o, a folder or a broken document as --spec', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    expectUsage(run(['ledger', '--profile', profile, '-o', file]), /-o .*a-file: not a folder/);
    const out = join(dir, 'out-spec');
    expectUsage(run(['ledger', '--profile', profile, '-o', out, '--spec', dir]), /--spec /);
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'openapi: [\n');
    expectUsage(run(['ledger', '--profile', profile, '-o', out, '--spec', broken]), /--spec/);
  });

  it('a device or a FIFO as --profile: refused at once, not read', () => {
    const out = join(dir, 'out-dev');
    expectUsage(
      run(['ledger', '--profile', '/dev/zero', '-o', out]),
      /--profile .*\/dev\/zero: not a regular file/,
    );
    const fifo = join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    expectUsage(run(['ledger', '--profile', fifo, '-o', out]), /fifo\.json: not a regular file/);
    expectUsage(run(['profile', '--merge', '/dev/zero']), /\/dev\/zero: not a regular file/);
  });
});

describe('web-data-evidence ledger outputs and history', () => {
  it('never writes through a symlink standing where evidence.md goes', () => {
    const out = join(dir, 'out-link');
    mkdirSync(out);
    const target = join(dir, 'precious.txt');
    writeFileSync(target, 'keep me\n');
    symlinkSync(target, join(out, 'evidence.md'));
    const result = run(['ledger', '--profile', profile, '-o', out]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
    expect(readFileSync(join(out, 'evidence.md'), 'utf8')).toMatch(/^# Evidence/);
  });

  it('a crafted evidence.json in --history is skipped with the reason; no script reaches the page', () => {
    const out = join(dir, 'out-history');
    expect(
      run(['ledger', '--profile', profile, '-o', join(dir, 'h', 'n1'), '--label', 'n1']).status,
    ).toBe(0);
    const night = JSON.parse(readFileSync(join(dir, 'h', 'n1', 'evidence.json'), 'utf8'));
    night.label = 'n2';
    night.facts[0].verdict = '"><script>alert(1)</script>';
    night.summary.confirmed = '<script>alert(2)</script>';
    mkdirSync(join(dir, 'h', 'n2'));
    writeFileSync(join(dir, 'h', 'n2', 'evidence.json'), JSON.stringify(night));
    const result = run(['ledger', '--profile', profile, '-o', out, '--history', join(dir, 'h')]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/--history skipped .*n2\/evidence\.json: not a ledger/);
    const html = readFileSync(join(out, 'evidence.html'), 'utf8');
    expect(html).not.toContain('<script');
    expect(html).toContain('n1');
  });
});
