/**
 * @module proxy/recorder
 * `--fixtures <dir>`: writes each conforming JSON response the proxy sees as a fixture the mock
 * can replay (format in fixture-format.ts). Nothing is written for a response that breaks a rule
 * of the document, for statuses that depend on the key or the moment (401, 403, 429, 5xx), or for
 * a body with an undeclared field whose name looks personal; each refusal is logged.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Operation } from '../contract/index.js';
import { FIXTURE_FORMAT, RECORDED_HEADERS, canonicalRequest, fixtureFiles, fixtureKey, sha256, type FixtureMeta } from './fixture-format.js';
import type { Finding } from './check.js';
import type { Exchange, Reporter } from './report.js';

/** Statuses worth replaying: successes, and "no such record" (a fact about the data); not 400 (the client's mistake), 401/403/429 (the key, the moment) or 5xx. */
const RECORDABLE = (status: number) => (status >= 200 && status < 300) || status === 404;
/** Field names that may carry personal data; the document declares none, so only drift can. */
const PERSONAL = /e-?mail|phone|password|passwd|secret|token|cookie|session|address|birth/i;

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
  findings: Finding[];
}

export interface Recorder {
  record(exchange: Exchange, input: RecordInput): void;
}

export function createRecorder(options: { dir: string; reporter: Reporter; now: () => number }): Recorder {
  const { dir, reporter, now } = options;
  mkdirSync(dir, { recursive: true });
  return {
    record(exchange, input) {
      if (!RECORDABLE(input.status)) return reporter.notRecorded(exchange, `status ${input.status} is not recorded (only 2xx and 404 are)`, 'info');
      const broken = input.findings.filter((f) => f.kind === 'violation');
      if (broken.length > 0) return reporter.notRecorded(exchange, `response violates the document (${broken.length} violation(s)); fixture not written`, 'warning');
      const personal = input.findings.find((f) => f.kind === 'undeclared' && PERSONAL.test(f.pointer.split('/').pop() ?? ''));
      if (personal) return reporter.notRecorded(exchange, `undeclared field ${personal.pointer} may hold personal data; fixture not written`, 'warning');

      const request = canonicalRequest(input.method, input.rawPath, input.search, input.requestBody);
      const key = fixtureKey(request);
      const files = fixtureFiles(dir, input.operation.operationId, key);
      const headers: Record<string, string> = {};
      for (const name of RECORDED_HEADERS) {
        const value = input.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      const meta: FixtureMeta = {
        format: FIXTURE_FORMAT,
        operationId: input.operation.operationId,
        request,
        response: { status: input.status, headers, bodyFile: files.bodyFile, bodySha256: sha256(input.body), bytes: input.body.byteLength },
        recordedAt: new Date(now()).toISOString(),
      };
      mkdirSync(dirname(files.meta), { recursive: true });
      // Body first, then the meta file that points at it, each via rename: a reader never sees half a fixture.
      writeAtomically(files.body, input.body);
      writeAtomically(files.meta, `${JSON.stringify(meta, null, 2)}\n`);
      reporter.recorded(exchange, files.meta);
    },
  };
}

function writeAtomically(file: string, data: Uint8Array | string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, file);
}
