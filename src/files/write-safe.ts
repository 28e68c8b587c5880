/**
 * @module files/write-safe
 * The one way an output file is written (profiles, evidence pages, the patch): into a new
 * temporary file beside the target, created exclusively and never through a symlink
 * (O_CREAT | O_EXCL | O_NOFOLLOW), then renamed over the target. A rename replaces a symlink
 * standing at the target's name, never the file it points to, and a reader never sees half a
 * file (one rename is atomic on one file system). Every problem is one `OutputFileError` naming
 * the file.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** An output file that cannot be written; the message names it and why. */
export class OutputFileError extends Error {
  override name = 'OutputFileError';
}

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Writes `data` to `path` (its folder made when missing); never through a symlink. */
export function writeFileSafely(path: string, data: string | Uint8Array): void {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new OutputFileError(`${dir}: cannot make the folder (${codeOf(error)})`);
  }
  const existing = lstatOrUndefined(path);
  if (existing?.isDirectory()) throw new OutputFileError(`${path}: is a folder`);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temp, CREATE, 0o644);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw new OutputFileError(`${path}: cannot write (${codeOf(error)})`);
  }
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
