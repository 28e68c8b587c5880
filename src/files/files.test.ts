/**
 * @module files/files.test
 * Input files: a device, a FIFO (no writer: the read must not wait), a folder, a file over the
 * bound and invalid UTF-8 are each one error naming the file. Output files: a symlink standing at
 * the output's name is replaced, its target untouched; no temporary file is left behind.
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  lstatSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveInside } from './inside.js';
import { InputFileError, readBoundedJson, readBoundedText } from './read-bounded.js';
import { OutputFileError, writeFileSafely } from './write-safe.js';

const dir = mkdtempSync(join(tmpdir(), 'files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readBoundedText', () => {
  it('reads a regular file', () => {
    const file = join(dir, 'a.json');
    writeFileSync(file, '{"a":1}');
    expect(readBoundedJson(file)).toEqual({ a: 1 });
  });

  it('refuses /dev/zero, a FIFO and a folder as not regular files', () => {
    expect(() => readBoundedText('/dev/zero')).toThrow(/^\/dev\/zero: not a regular file$/);
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(() => readBoundedText(fifo)).toThrow(`${fifo}: not a regular file`);
    expect(() => readBoundedText(dir)).toThrow(InputFileError);
  });

  it('refuses a file over the bound, and invalid UTF-8', () => {
    const big = join(dir, 'big');
    writeFileSync(big, 'x'.repeat(1001));
    expect(() => readBoundedText(big, { maxBytes: 1000 })).toThrow(
      `${big}: 1001 bytes, more than the 1000 allowed`,
    );
    const bad = join(dir, 'bad');
    writeFileSync(bad, Buffer.from([0x7b, 0xff, 0x7d]));
    expect(() => readBoundedText(bad)).toThrow(`${bad}: not valid UTF-8`);
    expect(() => readBoundedText(join(dir, 'missing'))).toThrow(/missing: cannot open \(ENOENT\)/);
  });
});

describe('writeFileSafely', () => {
  it('replaces a symlink at the name and leaves its target alone', () => {
    const out = join(dir, 'out');
    mkdirSync(out);
    const target = join(dir, 'precious');
    writeFileSync(target, 'keep me');
    symlinkSync(target, join(out, 'evidence.md'));
    writeFileSafely(join(out, 'evidence.md'), 'new');
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    expect(lstatSync(join(out, 'evidence.md')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(out, 'evidence.md'), 'utf8')).toBe('new');
    expect(readdirSync(out)).toEqual(['evidence.md']);
    expect(() => readlinkSync(join(out, 'evidence.md'))).toThrow();
  });

  it('refuses a folder at the name, and a folder it cannot make', () => {
    expect(() => writeFileSafely(dir, 'x')).toThrow(OutputFileError);
    const file = join(dir, 'plain');
    writeFileSync(file, '');
    expect(() => writeFileSafely(join(file, 'x.md'), 'x')).toThrow(/cannot make the folder/);
  });
});

describe('resolveInside', () => {
  it('keeps a name inside its folder; ../, an absolute path and a symlink out are refused', () => {
    const base = join(dir, 'baseline');
    mkdirSync(base, { recursive: true });
    expect(resolveInside(base, 'profile.json', 'its "profile"')).toBe(join(base, 'profile.json'));
    expect(() => resolveInside(base, '../../../../etc/passwd', 'its "profile"')).toThrow(
      /its "profile" "..\/..\/..\/..\/etc\/passwd" is outside/,
    );
    expect(() => resolveInside(base, '/etc/passwd', 'x')).toThrow(/outside/);
    symlinkSync('/etc/passwd', join(base, 'link.json'));
    expect(() => resolveInside(base, 'link.json', 'x')).toThrow(/outside/);
  });
});
