/**
 * @module prepared
 * The document in two forms that must stay one: parsed from `spec/openapi.yaml` (YAML parsing and
 * `$ref` dereferencing, the slow part of a start), and prepared at build time
 * (`scripts/prepare-contract.ts` writes `dist/spec/openapi.prepared.json`), which loads with one
 * `JSON.parse`. The prepared file names the SHA-256 of the YAML text it came from, and is used
 * only for that very text: an edited document, or another spec path, is parsed again.
 *
 * JSON cannot say that two places hold the same object, and the dereferenced document shares its
 * schemas (the validators compile each shared schema once), so every object reached more than once
 * is written once in `shared` and referenced as `{ "$shared": n }`.
 */
import { createHash } from 'node:crypto';
import type { OpenAPIV3_1 } from 'openapi-types';
import { packagePath } from '../package-root.js';

/** Changes whenever the file's layout does, so an older file is never misread. */
export const PREPARED_FORMAT = 'web-data-prepared/1';
/** Where `npm run build` writes the prepared form of the package's own document. */
export const PREPARED_PATH = packagePath('dist', 'spec', 'openapi.prepared.json');
const SHARED = '$shared';

/** The document as written (`$ref`s kept) and dereferenced, both untrimmed. */
export interface ParsedDocument {
  source: OpenAPIV3_1.Document;
  dereferenced: OpenAPIV3_1.Document;
}

interface PreparedFile {
  format: string;
  sha256: string;
  source: OpenAPIV3_1.Document;
  shared: unknown[];
  dereferenced: unknown;
}

export function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** YAML parsing and dereferencing, the run-time path without a fresh prepared file (yaml and the ref parser load only here). */
export async function parseDocument(text: string): Promise<ParsedDocument> {
  const [{ parse }, { default: $RefParser }] = await Promise.all([
    import('yaml'),
    import('@apidevtools/json-schema-ref-parser'),
  ]);
  const raw = parse(text) as OpenAPIV3_1.Document;
  const source = structuredClone(raw);
  const dereferenced = await $RefParser.dereference<OpenAPIV3_1.Document>(raw);
  return { source, dereferenced };
}

type Node = Record<string, unknown> | unknown[];
const isNode = (value: unknown): value is Node => value !== null && typeof value === 'object';
const entriesOf = (node: Node): [string | number, unknown][] =>
  Array.isArray(node) ? node.map((value, k) => [k, value]) : Object.entries(node);

/** The objects reached more than once (shared, or on a cycle), in first-seen order. */
function sharedNodes(root: unknown): Node[] {
  const seen = new Set<Node>();
  const shared = new Set<Node>();
  const visit = (value: unknown): void => {
    if (!isNode(value)) return;
    if (seen.has(value)) {
      shared.add(value);
      return;
    }
    seen.add(value);
    if (
      !Array.isArray(value) &&
      (Object.hasOwn(value, SHARED) || Object.hasOwn(value, '__proto__'))
    )
      throw new Error(`the document uses a key the prepared form reserves (${SHARED}, __proto__)`);
    for (const [, child] of entriesOf(value)) visit(child);
  };
  visit(root);
  return [...shared];
}

/** The prepared file's text for a document parsed from `text`. */
export function encodePrepared(text: string, parsed: ParsedDocument): string {
  const shared = sharedNodes(parsed.dereferenced);
  const index = new Map(shared.map((node, k) => [node, k]));
  // A shared node is written out in full only as its own entry; everywhere else, by reference.
  const encode = (value: unknown, own?: Node): unknown => {
    if (!isNode(value)) return value;
    const k = index.get(value);
    if (k !== undefined && value !== own) return { [SHARED]: k };
    if (Array.isArray(value)) return value.map((child) => encode(child));
    return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, encode(child)]));
  };
  const file: PreparedFile = {
    format: PREPARED_FORMAT,
    sha256: sha256Of(text),
    source: parsed.source,
    shared: shared.map((node) => encode(node, node)),
    dereferenced: encode(parsed.dereferenced),
  };
  return JSON.stringify(file);
}

/**
 * The document from a prepared file's text, when that file was prepared from exactly `text` in
 * this format; undefined otherwise (the caller parses instead).
 */
export function decodePrepared(prepared: string, text: string): ParsedDocument | undefined {
  const file = JSON.parse(prepared) as Partial<PreparedFile>;
  if (file.format !== PREPARED_FORMAT || file.sha256 !== sha256Of(text)) return undefined;
  const shared = file.shared as Node[];
  const isReference = (value: unknown): value is { [SHARED]: number } =>
    isNode(value) && !Array.isArray(value) && typeof value[SHARED] === 'number';
  // In place: each reference becomes its shared object, whose own references are resolved once.
  const resolve = (node: Node): void => {
    for (const [key, child] of entriesOf(node)) {
      if (isReference(child))
        (node as Record<string | number, unknown>)[key] = shared[child[SHARED]];
      else if (isNode(child)) resolve(child);
    }
  };
  for (const node of shared) resolve(node);
  let dereferenced = file.dereferenced as Node;
  if (isReference(dereferenced)) dereferenced = shared[dereferenced[SHARED]];
  else resolve(dereferenced);
  return {
    source: file.source as OpenAPIV3_1.Document,
    dereferenced: dereferenced as unknown as OpenAPIV3_1.Document,
  };
}
