/**
 * @module evidence/write
 * Writes a profile the way a reader may never see half of: into a temporary file beside the
 * target, then renamed over it (one rename is atomic on one file system). What is written went
 * through `profileText`: secrets redacted name by name, and read back with the reader first.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { profileText, type Profile } from './profile.js';

export function writeProfileAtomic(
  path: string,
  profile: Profile,
  secrets: readonly string[] = [],
): void {
  const text = profileText(profile, secrets);
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
