/**
 * @module named-types
 * `src/contract/named-types.gen.ts`: a named type for every schema of `spec/openapi.yaml`
 * (`Product`, `ProductPart`, `RateLimitError`, ...), the union of its operationIds and the union
 * of its releases (`info.x-changelog`), all read from the document, so a new schema, operation or
 * release cannot be forgotten. `npm run types:gen` writes it (`--write`, after openapi-typescript
 * has written `types.gen.ts`, which it aliases); `npm run types:check` fails when it is stale.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parse } from 'yaml';
import { SPEC_PATH, runGeneratedFile, staleGenerated } from './check-types-fresh.js';

export const NAMED_TYPES_PATH = fileURLToPath(
  new URL('../src/contract/named-types.gen.ts', import.meta.url),
);

/** Names the file declares or imports itself: a schema of the same name would clash. */
const RESERVED_NAMES = new Set([
  'components',
  'operations',
  'paths',
  'OperationId',
  'Release',
  'ErrorBody',
]);
/** A name TypeScript takes as a type name (reserved words are refused by the compile that follows). */
const TYPE_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Text from the document placed in a comment: it cannot close the comment or start a new line. */
const commentText = (text: string) => text.replace(/\*\//g, '*\\/').replace(/\s+/g, ' ').trim();

/** A TypeScript string literal of a document value (quotes and backslashes escaped by JSON). */
const literal = (text: string) => `'${JSON.stringify(text).slice(1, -1).replace(/'/g, "\\'")}'`;

interface DocumentParts {
  schemas: [name: string, source: string | undefined][];
  releases: string[];
  /** The schemas an error response (4xx, 5xx) of some operation has as its JSON body. */
  errorBodies: string[];
}

interface ResponseNode {
  $ref?: unknown;
  content?: Record<string, { schema?: { $ref?: unknown } }>;
}

interface YamlDocument {
  info?: { 'x-changelog'?: { release?: unknown }[] };
  paths?: Record<string, Record<string, { responses?: Record<string, ResponseNode> }>>;
  components?: {
    schemas?: Record<string, { 'x-source'?: unknown }>;
    responses?: Record<string, ResponseNode>;
  };
}

const SCHEMA_REF = '#/components/schemas/';
const RESPONSE_REF = '#/components/responses/';

/** The component name a `$ref` points to under `prefix`, or undefined. */
function refName(ref: unknown, prefix: string): string | undefined {
  return typeof ref === 'string' && ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined;
}

/** Every schema named as the JSON body of a 4xx or 5xx response, in the document's schema order. */
function errorBodiesOf(doc: YamlDocument, schemaNames: readonly string[]): string[] {
  const named = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const [method, operation] of Object.entries(item ?? {}))
      for (const [status, written] of Object.entries(operation?.responses ?? {})) {
        if (!/^[45]/.test(status)) continue;
        const target = refName(written?.$ref, RESPONSE_REF);
        const response = target === undefined ? written : doc.components?.responses?.[target];
        for (const [type, media] of Object.entries(response?.content ?? {})) {
          const schema = refName(media?.schema?.$ref, SCHEMA_REF);
          if (schema === undefined)
            throw new Error(
              `paths.${path}.${method}.responses.${status} (${type}): an error body must be a $ref to components.schemas to be named`,
            );
          named.add(schema);
        }
      }
  return schemaNames.filter((name) => named.has(name));
}

/** The schema names (with their kind of fact) and the changelog's releases, checked. */
function partsOf(yamlText: string): DocumentParts {
  const doc = parse(yamlText) as YamlDocument;
  const schemas = Object.entries(doc.components?.schemas ?? {}).map(
    ([name, schema]): [string, string | undefined] => {
      if (!TYPE_NAME.test(name) || RESERVED_NAMES.has(name))
        throw new Error(
          `components.schemas.${name}: not usable as an exported type name (rule: an identifier, not one of ${[...RESERVED_NAMES].join(', ')})`,
        );
      const source = schema?.['x-source'];
      return [name, typeof source === 'string' ? source : undefined];
    },
  );
  const releases = (doc.info?.['x-changelog'] ?? []).map((entry, i) => {
    if (typeof entry?.release !== 'string' || entry.release === '')
      throw new Error(`info.x-changelog[${i}].release must be a non-empty string`);
    return entry.release;
  });
  if (releases.length === 0) throw new Error('info.x-changelog names no release');
  const errorBodies = errorBodiesOf(
    doc,
    schemas.map(([name]) => name),
  );
  return { schemas, releases, errorBodies };
}

/** The generated file's text for a document (its YAML text), formatted as the repository formats. */
export async function renderNamedTypes(
  yamlText = readFileSync(SPEC_PATH, 'utf8'),
): Promise<string> {
  const { schemas, releases, errorBodies } = partsOf(yamlText);
  const lines = [
    '/**',
    ' * Generated from spec/openapi.yaml by `npm run types:gen` (scripts/named-types.ts); do not edit',
    ' * by hand. A named type for every schema of the document, its operationIds and its releases.',
    ' */',
    "import type { components, operations } from './types.gen.js';",
    '',
    '/** The operationId of an operation of the document (every release, the unreleased included). */',
    'export type OperationId = keyof operations;',
    '',
    "/** A release named by the document's `info.x-changelog`, newest first. */",
    `export type Release = ${releases.map(literal).join(' | ')};`,
    '',
    '/** The body of an error response (4xx, 5xx) of some operation, as the document declares it. */',
    `export type ErrorBody = ${errorBodies.join(' | ')};`,
    ...schemas.flatMap(([name, source]) => [
      '',
      `/** \`#/components/schemas/${name}\`${source ? ` (${commentText(source)})` : ''} */`,
      `export type ${name} = components['schemas']['${name}'];`,
    ]),
    '',
  ];
  const options = (await resolveConfig(NAMED_TYPES_PATH)) ?? {};
  return format(lines.join('\n'), { ...options, filepath: NAMED_TYPES_PATH });
}

/** The failure text when the committed file is not what the document gives today, else undefined. */
export async function checkNamedTypesFresh(
  path = NAMED_TYPES_PATH,
  specPath = SPEC_PATH,
): Promise<string | undefined> {
  return staleGenerated(path, await renderNamedTypes(readFileSync(specPath, 'utf8')), specPath);
}

async function main(): Promise<void> {
  await runGeneratedFile({
    path: NAMED_TYPES_PATH,
    render: () => renderNamedTypes(),
    check: () => checkNamedTypesFresh(),
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
