/**
 * @module recordings/recorder
 * `createRecorder({ dir })`: writes a conforming JSON response as a fixture the mock can replay
 * (format in format.ts) and says what it did; the caller (the proxy) logs and counts. Nothing is
 * written for a response that breaks a rule of the document, for statuses that depend on the key
 * or the moment (401, 403, 429, 5xx), for a body over the size cap, or for a body with an
 * undeclared field whose name looks personal. A failed write is an outcome, not an exception:
 * recording must never stand between the live answer and the client.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Operation, ResponseFinding } from '../contract/index.js';
import {
  FIXTURE_FORMAT,
  MAX_BODY_BYTES,
  RECORDED_HEADERS,
  canonicalRequest,
  fixtureFiles,
  fixtureKey,
  sha256,
  type FixtureMeta,
} from './format.js';
import { UsageError } from '../usage.js';

/** Statuses worth replaying: successes, and "no such record" (a fact about the data); not 400 (the client's mistake), 401/403/429 (the key, the moment) or 5xx. */
const RECORDABLE = (status: number) => (status >= 200 && status < 300) || status === 404;
/** Field names that may carry personal data; the document declares none, so only drift can. */
const PERSONAL = /e-?mail|phone|password|passwd|secret|token|cookie|session|address|birth/i;

/** A fixtures or replay directory the user named that cannot be used (e.g. a path below a regular file). */
export class RecordingsError extends UsageError {
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
  | { kind: 'failed'; error: string };

export interface Recorder {
  record(input: RecordInput): RecordOutcome;
}

/** Creates the directory now, so a path that can never work is refused at startup. */
export function createRecorder(options: { dir: string; now: () => number }): Recorder {
  const { dir, now } = options;
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new RecordingsError(
      `--fixtures ${dir}: cannot create the directory (${describeFsError(error)})`,
    );
  }
  return {
    record(input) {
      const skipped = reasonNotToRecord(input);
      if (skipped) return { kind: 'skipped', ...skipped };
      const request = canonicalRequest(
        input.method,
        input.rawPath,
        input.search,
        input.requestBody,
      );
      const files = fixtureFiles(dir, input.operation.operationId, fixtureKey(request));
      const headers: Record<string, string> = {};
      for (const name of RECORDED_HEADERS) {
        const value = input.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      const meta: FixtureMeta = {
        format: FIXTURE_FORMAT,
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
        // Body first, then the meta file that points at it, each via rename: a reader never sees half a fixture.
        writeAtomically(files.body, input.body);
        writeAtomically(files.meta, `${JSON.stringify(meta, null, 2)}\n`);
      } catch (error) {
        if (!isFsError(error)) throw error;
        return { kind: 'failed', error: `cannot write ${files.meta} (${describeFsError(error)})` };
      }
      return { kind: 'written', file: files.meta };
    },
  };
}

function reasonNotToRecord(
  input: RecordInput,
): { reason: string; severity: 'info' | 'warning' } | undefined {
  if (!RECORDABLE(input.status))
    return {
      reason: `status ${input.status} is not recorded (only 2xx and 404 are)`,
      severity: 'info',
    };
  if (input.body.byteLength > MAX_BODY_BYTES)
    return {
      reason: `body of ${input.body.byteLength} bytes is over the ${MAX_BODY_BYTES}-byte fixture cap`,
      severity: 'info',
    };
  const broken = input.findings.filter((f) => f.kind === 'violation');
  if (broken.length > 0)
    return {
      reason: `response violates the document (${broken.length} violation(s)); fixture not written`,
      severity: 'warning',
    };
  const personal = input.findings.find(
    (f) => f.kind === 'undeclared' && PERSONAL.test(f.pointer.split('/').pop() ?? ''),
  );
  if (personal)
    return {
      reason: `undeclared field ${personal.pointer} may hold personal data; fixture not written`,
      severity: 'warning',
    };
  return undefined;
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
      // The write's own error is the one to report; a leftover .tmp is never read as a fixture.
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
