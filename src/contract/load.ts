/**
 * @module load
 * Reads `spec/openapi.yaml` once per path and release: from its prepared form when `npm run build`
 * made one from this very text (prepared.ts), else parsed and dereferenced; trims it to one release
 * when asked (trim.ts) and builds the operation table (operations.ts). Nothing else parses the YAML.
 */
import { readFileSync } from 'node:fs';
import { packagePath } from '../package-root.js';
import type { Contract } from './model.js';
import { collectOperations } from './operations.js';
import { decodePrepared, parseDocument, PREPARED_PATH, type ParsedDocument } from './prepared.js';
import { UNRELEASED, type Release } from './releases.js';
import { trimToRelease } from './trim.js';

export const DEFAULT_SPEC_PATH = packagePath('spec', 'openapi.yaml');
/** The base path every server URL in the document ends with. */
export const BASE_PATH = '/web-data/v1';

const cache = new Map<string, Promise<Contract>>();

export interface LoadOptions {
  specPath?: string;
  /** Trim to what this release served (`x-since`); default: the newest released version. */
  release?: Release;
}

/** Loads (once per path and release) the dereferenced contract. */
export function loadContract(options: LoadOptions = {}): Promise<Contract> {
  const specPath = options.specPath ?? DEFAULT_SPEC_PATH;
  const key = `${specPath}\0${options.release ?? ''}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = buildContract(specPath, options.release);
    cache.set(key, pending);
  }
  return pending;
}

/** The raw document text, as served at the mock's spec URL. */
export function readSpecText(specPath = DEFAULT_SPEC_PATH): string {
  return readFileSync(specPath, 'utf8');
}

/** The prepared file's text, when there is one (a checkout that was never built has none). */
function readPrepared(): string | undefined {
  try {
    return readFileSync(PREPARED_PATH, 'utf8');
  } catch {
    return undefined;
  }
}

/** The document from its prepared form when that was made from exactly `text`, else parsed. */
async function readDocument(text: string): Promise<ParsedDocument> {
  const prepared = readPrepared();
  return (prepared && decodePrepared(prepared, text)) || parseDocument(text);
}

async function buildContract(specPath: string, requested?: Release): Promise<Contract> {
  const { source: sourceDocument, dereferenced: document } = await readDocument(
    readSpecText(specPath),
  );
  const latestRelease = document.info.version;
  const changelog =
    (document.info as { 'x-changelog'?: { release: string }[] })['x-changelog'] ?? [];
  const releases = changelog.map((entry) => entry.release);
  const release = requested ?? latestRelease;
  if (!releases.includes(release)) {
    throw new Error(`Unknown release "${release}"; the changelog names: ${releases.join(', ')}`);
  }
  if (release !== UNRELEASED) {
    trimToRelease(document, release);
    trimToRelease(sourceDocument, release);
  }
  const operations = collectOperations(document);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return {
    release,
    latestRelease,
    releases,
    document,
    sourceDocument,
    operations,
    operation(operationId) {
      const op = byId.get(operationId);
      if (!op) throw new Error(`No operation "${operationId}" in release ${release}`);
      return op;
    },
  };
}
