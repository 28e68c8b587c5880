/**
 * @module evidence/write
 * Writes a profile the way a reader may never see half of, and never through a symlink
 * (files/write-safe.ts: a new temporary file beside the target, renamed over it).
 */
import { writeFileSafely } from '../files/write-safe.js';
import { serializeProfile, type Profile } from './profile.js';

export function writeProfileAtomic(path: string, profile: Profile): void {
  writeFileSafely(path, serializeProfile(profile));
}
