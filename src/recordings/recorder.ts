/**
 * @module recordings/recorder
 * `createRecorder({ dir })`: writes a conforming JSON response as a recording the mock can replay
 * (format in format.ts) and says what it did; the caller (the proxy) logs and counts. Nothing is
 * written for a response that breaks a rule of the document, for statuses that depend on the key
 * or the moment (401, 403, 429, 5xx), for a body over the size cap, or for a body holding personal
 * data (personal-data.ts: an undeclared field whose name looks personal, a value anywhere that
 * does, the key in any encoding). The bodies in the directory are bounded as replay bounds them
 * (MAX_TOTAL_BYTES, counting what was there before): the first answer that would cross the bound
 * closes the recorder for the rest of the run (`full`), so the folder stays one replay accepts.
 * A failed write is an outcome, not an exception: recording must never stand between the live
 * answer and the client.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Operation, ResponseFinding } from '../contract/index.js';
import {
  RECORDING_FORMAT,
  MAX_BODY_BYTES,
  MAX_TOTAL_BYTES,
  RECORDED_HEADERS,
  isBodyFile,
  canonicalRequest,
  recordingFiles,
  recordingKey,
  sha256,
  type RecordingMeta,
} from './format.js';
import { valueHoldsSecret } from '../redaction.js';
import { findPersonalData } from './personal-data.js';

/** Statuses worth replaying: successes, and "no such record" (a fact about the data); not 400 (the client's mistake), 401/403/429 (the key, the moment) or 5xx. */
const RECORDABLE = (status: number) => (status >= 200 && status < 300) || status === 404;

/**
 * A recordings or replay directory the user named that cannot be used (e.g. a path below a regular
 * file): the user's input, which each command maps to its usage error (exit 2).
 */
export class RecordingsError extends Error {
  override name = 'RecordingsError';
}

export interface RecordInput {
  operation: Operation;
  method: string;
  /** Below the base path, still percent-encoded. */
  rawPath: string;
  search: string;
  requestBody?: Uint8Array;
  status: number;
  headers: Headers;
  body: Uint8Array;
  findings: ResponseFinding[];
}

export type RecordOutcome =
  | { kind: 'written'; file: string }
  | { kind: 'skipped'; reason: string; severity: 'info' | 'warning' }
  /** The file system refused (full disk, permissions, the directory gone); `error` names the file and the code. */
  | { kind: 'failed'; error: string }
  /** The bodies reached the bound replay accepts: nothing more is written this run. */
  | { kind: 'full'; reason: string };

export interface Recorder {
  record(input: RecordInput): RecordOutcome;
}

export interface RecorderOptions {
  dir: string;
  now: () => number;
  /** Secrets (the API key) no recording may hold in any encoding. */
  secrets?: readonly string[];
}

/** Creates the directory now, so a path that can never work is refused at startup. */
export function createRecorder(options: RecorderOptions): Recorder {
  const { dir, now } = options;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new RecordingsError(
      `cannot create the recordings directory ${dir} (${describeFsError(error)})`,
    );
  }
  /** Body bytes per body file, those already there included: replay counts them all. */
  const sizes = existingBodySizes(dir);
  let total = [...sizes.values()].reduce((a, b) => a + b, 0);
  let full: string | undefined;
  return {
    record(input) {
      if (full) return { kind: 'full', reason: full };
      const skipped = reasonNotToRecord(input, options.secrets ?? []);
      if (skipped) return { kind: 'skipped', ...skipped };
      const request = canonicalRequest(
        input.method,
        input.rawPath,
        input.search,
        input.requestBody,
      );
      const files = recordingFiles(dir, input.operation.operationId, recordingKey(request));
      const after = total - (sizes.get(files.body) ?? 0) + input.body.byteLength;
      if (after > MAX_TOTAL_BYTES) {
        full = `the recordings hold ${total} bytes of bodies and this answer's ${input.body.byteLength} would cross the ${MAX_TOTAL_BYTES}-byte bound replay accepts; no further answers are recorded this run`;
        return { kind: 'full', reason: full };
      }
      const headers: Record<string, string> = {};
      for (const name of RECORDED_HEADERS) {
        const value = input.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      // The body was judged above; what else the recording would keep is judged here, name by name.
      if (valueHoldsSecret({ request, headers }, options.secrets ?? []))
        return {
          kind: 'skipped',
          reason: 'the request or a recorded header holds the API key; recording not written',
          severity: 'warning',
        };
      const meta: RecordingMeta = {
        format: RECORDING_FORMAT,
        operationId: input.operation.operationId,
        request,
        response: {
          status: input.status,
          headers,
          bodyFile: files.bodyFile,
          bodySha256: sha256(input.body),
          bytes: input.body.byteLength,
        },
        recordedAt: new Date(now()).toISOString(),
      };
      try {
        mkdirSync(dirname(files.meta), { recursive: true });
        // Body first, then the meta file that points at it, each via rename: a reader never sees half a recording.
        writeAtomically(files.body, input.body);
        writeAtomically(files.meta, `${JSON.stringify(meta, null, 2)}\n`);
        sizes.set(files.body, input.body.byteLength);
        total = after;
      } catch (error) {
        if (!isFsError(error)) throw error;
        return { kind: 'failed', error: `cannot write ${files.meta} (${describeFsError(error)})` };
      }
      return { kind: 'written', file: files.meta };
    },
  };
}

/** `<dir>/<operationId>/<key>.body.json` sizes; an unreadable entry counts as nothing (replay refuses it anyway). */
function existingBodySizes(dir: string): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !isBodyFile(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    try {
      sizes.set(path, statSync(path).size);
    } catch {
      // Gone between listing and stat: nothing to count.
    }
  }
  return sizes;
}

function reasonNotToRecord(
  input: RecordInput,
  secrets: readonly string[],
): { reason: string; severity: 'info' | 'warning' } | undefined {
  if (!RECORDABLE(input.status))
    return {
      reason: `status ${input.status} is not recorded (only 2xx and 404 are)`,
      severity: 'info',
    };
  if (input.body.byteLength > MAX_BODY_BYTES)
    return {
      reason: `body of ${input.body.byteLength} bytes is over the ${MAX_BODY_BYTES}-byte recording cap`,
      severity: 'info',
    };
  const broken = input.findings.filter((f) => f.kind === 'violation');
  if (broken.length > 0)
    return {
      reason: `response violates the document (${broken.length} violation(s)); recording not written`,
      severity: 'warning',
    };
  // Names are the document's to choose where it declares them; an undeclared one (and all below it) is judged.
  const undeclared = input.findings.filter((f) => f.kind === 'undeclared').map((f) => f.pointer);
  const personal = findPersonalData(parseJson(input.body), {
    secrets,
    judgeName: (pointer) => undeclared.some((u) => pointer === u || pointer.startsWith(`${u}/`)),
  });
  if (personal)
    return {
      reason: `${personal.pointer || 'the body'} may hold personal data (${personal.reason}); recording not written`,
      severity: 'warning',
    };
  return undefined;
}

/** The recorder is handed JSON the checker read; anything else is judged as its text. */
function parseJson(body: Uint8Array): unknown {
  const text = Buffer.from(body).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function writeAtomically(file: string, data: Uint8Array | string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, data);
    renameSync(temporary, file);
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // The write's own error is the one to report; a leftover .tmp is never read as a recording.
    }
    throw error;
  }
}

function isFsError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

/** `ENOTDIR`, `EACCES`, ... : the code says it all, and never carries a body or a key. */
export function describeFsError(error: unknown): string {
  return isFsError(error) ? error.code! : (error as Error).message;
}
