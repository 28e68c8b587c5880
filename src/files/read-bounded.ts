/**
 * @module files/read-bounded
 * The one way an input file is read (a profile, a baseline report, an earlier night's ledger, the
 * document): a regular file only (a FIFO, a device such as /dev/zero or a folder is refused, and
 * opening never waits for a writer), at most a stated number of bytes (the read stops there, so a
 * file that grows while read cannot grow the process), and valid UTF-8. Every problem is one
 * `InputFileError` whose message names the file and the rule.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** The most bytes an input file may hold unless the caller says otherwise: 64 MiB. */
export const MAX_INPUT_FILE_BYTES = 64 * 1024 * 1024;

/** An input file that cannot be read under the rules; the message names it and the rule. */
export class InputFileError extends Error {
  override name = 'InputFileError';
}

export interface ReadBoundedOptions {
  /** The most bytes accepted (default MAX_INPUT_FILE_BYTES). */
  maxBytes?: number;
}

const CHUNK = 1024 * 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes of a regular file of at most `maxBytes`. */
export function readBoundedBytes(path: string, options: ReadBoundedOptions = {}): Buffer {
  const maxBytes = options.maxBytes ?? MAX_INPUT_FILE_BYTES;
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new InputFileError(`${path}: cannot open (${codeOf(error)})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new InputFileError(`${path}: not a regular file`);
    if (stat.size > maxBytes)
      throw new InputFileError(`${path}: ${stat.size} bytes, more than the ${maxBytes} allowed`);
    // The size may be stale (a file still being written): read at most one byte past the bound.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes)
        throw new InputFileError(`${path}: more than the ${maxBytes} bytes allowed`);
    }
    return Buffer.concat(chunks, total);
  } catch (error) {
    if (error instanceof InputFileError) throw error;
    throw new InputFileError(`${path}: cannot read (${codeOf(error)})`);
  } finally {
    closeSync(fd);
  }
}

/** The text of a regular UTF-8 file of at most `maxBytes`. */
export function readBoundedText(path: string, options: ReadBoundedOptions = {}): string {
  const bytes = readBoundedBytes(path, options);
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InputFileError(`${path}: not valid UTF-8`);
  }
}

/** A JSON file read under the same rules; a parse error names the file. */
export function readBoundedJson(path: string, options: ReadBoundedOptions = {}): unknown {
  const text = readBoundedText(path, options);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputFileError(`${path}: not JSON (${(error as Error).message})`);
  }
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
