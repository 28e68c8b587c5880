/**
 * @module evidence/write
 * Writes a profile the way a reader may never see half of, and never through a symlink
 * (files/write-safe.ts: a new temporary file beside the target, renamed over it). What is written
 * went through `profileText`: secrets redacted name by name, and read back with the reader first.
 */
import { writeFileSafely } from '../files/write-safe.js';
import { profileText, type Profile } from './profile.js';

export function writeProfileAtomic(
  path: string,
  profile: Profile,
  secrets: readonly string[] = [],
): void {
  writeFileSafely(path, profileText(profile, secrets));
}
