/**
 * @module recordings/load
 * `loadRecordings(dir)`: reads a directory of recordings (format.ts) someone handed us, trusting
 * nothing in it. Every file read must resolve (symlinks followed) inside the directory; a body
 * file is a plain name next to its meta file; sizes are capped (each file and the whole set);
 * the meta file must match the format's schema (final statuses 200-599, only the recorded
 * headers); a status that carries no body (204, 205, 304) must have none; the body must match
 * its hash. A 1xx is refused: it is an interim answer, and replaying one left the client waiting
 * for a final answer that never came. Every problem names the file and what is wrong with it, and all
 * of them are reported at once.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, isAbsolute, sep } from 'node:path';
import { NO_BODY_STATUSES } from '../contract/index.js';
import { describeFsError, RecordingsError } from './recorder.js';
import {
  RECORDING_FORMAT,
  MAX_BODY_BYTES,
  MAX_META_BYTES,
  MAX_TOTAL_BYTES,
  RECORDED_HEADERS,
  recordingKey,
  isMetaFile,
  sha256,
  type RecordingMeta,
} from './format.js';

export interface Recording {
  meta: RecordingMeta;
  body: Uint8Array;
}

const SHA256 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
/** Printable ASCII and tabs: what may go into a response header. */
const HEADER_VALUE = '^[\\t\\x20-\\x7e]*$';
/** A file name in the meta file's own folder: no separators, not `.` or `..`. */
const PLAIN_FILE_NAME = '^(?!\\.\\.?$)[^/\\\\\\x00]+$';

const META_SCHEMA = {
  type: 'object',
  required: ['format', 'operationId', 'request', 'response'],
  properties: {
    format: { const: RECORDING_FORMAT },
    operationId: { type: 'string', pattern: '^[A-Za-z0-9_]+$' },
    request: {
      type: 'object',
      required: ['method', 'path', 'query'],
      properties: {
        method: { type: 'string', pattern: '^[A-Z]+$' },
        path: { type: 'string', pattern: '^/' },
        query: {
          type: 'array',
          items: {
            type: 'array',
            prefixItems: [{ type: 'string' }, { type: 'string' }],
            items: false,
            minItems: 2,
          },
        },
        bodySha256: SHA256,
      },
    },
    response: {
      type: 'object',
      required: ['status', 'headers', 'bodyFile', 'bodySha256', 'bytes'],
      properties: {
        status: { type: 'integer', minimum: 200, maximum: 599 },
        headers: {
          type: 'object',
          propertyNames: { enum: RECORDED_HEADERS },
          additionalProperties: { type: 'string', pattern: HEADER_VALUE },
        },
        bodyFile: { type: 'string', pattern: PLAIN_FILE_NAME },
        bodySha256: SHA256,
        bytes: { type: 'integer', minimum: 0, maximum: MAX_BODY_BYTES },
      },
    },
    recordedAt: { type: 'string' },
  },
};

const validateMeta = new Ajv2020({ allErrors: true, strict: true }).compile<RecordingMeta>(
  META_SCHEMA,
);

/** Problems found so far, each line naming its file; `files` counts the files they are about. */
class Problems {
  readonly lines: string[] = [];
  readonly #files = new Set<string>();
  add(file: string, problem: string): void {
    this.#files.add(file);
    this.lines.push(`${file}: ${problem}`);
  }
  get files(): number {
    return this.#files.size;
  }
}

/** What a bad `bodyFile` is told (the pattern itself says little to a reader). */
const PLAIN_FILE_NAME_RULE =
  'must be a plain file name next to its meta file (no "/", "\\" or "..")';
/** How many problems one error message lists (the rest are counted). */
const PROBLEMS_SHOWN = 20;

/** Every recording under `dir`, by request key; throws one `RecordingsError` listing every bad file. */
export function loadRecordings(dir: string): Map<string, Recording> {
  const root = realDirectory(dir);
  const recordings = new Map<string, Recording>();
  const problems = new Problems();
  let total = 0;
  for (const entry of readdirSync(root)) {
    const folder = join(root, entry);
    let isFolder: boolean;
    try {
      isFolder = statSync(folder).isDirectory();
    } catch (error) {
      problems.add(folder, `cannot be read (${describeFsError(error)})`);
      continue;
    }
    if (!isFolder) continue;
    for (const name of readdirSync(folder).filter(isMetaFile)) {
      const file = join(folder, name);
      const recording = loadOne(root, file, problems);
      if (!recording) continue;
      total += recording.body.byteLength;
      if (total > MAX_TOTAL_BYTES) {
        problems.add(
          file,
          `the replay directory holds more than ${MAX_TOTAL_BYTES} bytes of bodies (the cap); split it`,
        );
        break;
      }
      recordings.set(recordingKey(recording.meta.request), recording);
    }
  }
  const { lines } = problems;
  if (lines.length > 0) {
    const more =
      lines.length > PROBLEMS_SHOWN ? [`... and ${lines.length - PROBLEMS_SHOWN} more`] : [];
    throw new RecordingsError(
      `replay: ${dir} has ${problems.files} bad recording file(s), ${lines.length} problem(s):\n  ${[...lines.slice(0, PROBLEMS_SHOWN), ...more].join('\n  ')}`,
    );
  }
  return recordings;
}

function realDirectory(dir: string): string {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch (error) {
    throw new RecordingsError(
      `replay: cannot open the recordings directory ${dir} (${describeFsError(error)})`,
    );
  }
  if (!statSync(root).isDirectory()) throw new RecordingsError(`replay: ${dir} is not a directory`);
  return root;
}

function loadOne(root: string, file: string, problems: Problems): Recording | undefined {
  const metaText = readConfined(root, file, MAX_META_BYTES, problems, file);
  if (metaText === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(metaText.toString('utf8'));
  } catch (error) {
    problems.add(file, `not valid JSON (${(error as Error).message})`);
    return undefined;
  }
  if (!validateMeta(parsed)) {
    for (const e of validateMeta.errors ?? []) {
      const message =
        e.instancePath === '/response/bodyFile' && e.keyword === 'pattern'
          ? PLAIN_FILE_NAME_RULE
          : e.message;
      problems.add(
        file,
        `${e.instancePath || 'the top level'} ${message}${e.keyword === 'const' ? ` (expected "${RECORDING_FORMAT}")` : ''}`,
      );
    }
    return undefined;
  }
  const meta = parsed;
  const { status, bytes } = meta.response;
  if (NO_BODY_STATUSES.has(status) && bytes > 0) {
    problems.add(
      file,
      `status ${status} carries no body, but the recording has ${bytes} bytes (replay cannot serve it)`,
    );
    return undefined;
  }
  const bodyPath = join(dirname(file), meta.response.bodyFile);
  const body = readConfined(root, bodyPath, MAX_BODY_BYTES, problems, file);
  if (body === undefined) return undefined;
  if (body.byteLength !== meta.response.bytes || sha256(body) !== meta.response.bodySha256) {
    problems.add(
      file,
      `body file ${meta.response.bodyFile} was changed after recording (size or hash differs)`,
    );
    return undefined;
  }
  return { meta, body: new Uint8Array(body) };
}

/** Reads `path` if it resolves inside `root` and is a regular file within `cap`; otherwise records why not, under `owner`. */
function readConfined(
  root: string,
  path: string,
  cap: number,
  problems: Problems,
  owner: string,
): Buffer | undefined {
  const what = path === owner ? '' : `body file ${path}: `;
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    problems.add(owner, `${what}cannot be read (${describeFsError(error)})`);
    return undefined;
  }
  const within = relative(root, real);
  if (within === '' || within.startsWith(`..${sep}`) || within === '..' || isAbsolute(within)) {
    problems.add(
      owner,
      `${what}resolves outside the replay directory (to ${real}); recordings must stay inside it`,
    );
    return undefined;
  }
  const stats = statSync(real);
  if (!stats.isFile()) {
    problems.add(owner, `${what}is not a regular file`);
    return undefined;
  }
  if (stats.size > cap) {
    problems.add(owner, `${what}is ${stats.size} bytes, over the ${cap}-byte cap`);
    return undefined;
  }
  return readFileSync(real);
}
