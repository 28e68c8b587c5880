/**
 * @module files/inside
 * A path a file names (a baseline report's `"profile"`) taken relative to that file's folder and
 * kept there: an absolute path, `..` that climbs out, or a symlink that leads out is refused.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InputFileError } from './read-bounded.js';

function within(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path; // missing: the reader says so
  }
}

/** `name` resolved in `folder`; an InputFileError (naming `what`) when it leads outside. */
export function resolveInside(folder: string, name: string, what: string): string {
  const path = resolve(folder, name);
  if (isAbsolute(name) || !within(resolve(folder), path) || !within(real(folder), real(path)))
    throw new InputFileError(`${what} ${JSON.stringify(name)} is outside ${folder}`);
  return path;
}
