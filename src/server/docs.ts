/**
 * @module docs
 * The offline API reference: the raw document (`/openapi.yaml`, `/openapi.json`), and `/docs`, the
 * Scalar reference page preconfigured with this server as the target and the demo key filled in.
 * The Scalar bundle is served from `node_modules`, so the page loads nothing from a CDN (and, with
 * fonts and telemetry off, nothing from the internet at all). The page reads a copy of the
 * document with this mock's working examples (`/examples.json`) filled into every operation's path
 * parameters and request body, so "try it" answers 200 on every operation as it stands, and the
 * table of kinds of fact (source, vendor reference, ours) in its introduction.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Env, Hono } from 'hono';
import { Scalar } from '@scalar/hono-api-reference';
import { parse as parseYaml } from 'yaml';

export interface DocsOptions {
  /** The document's text (see `readSpecText` in src/contract), or a function that makes it on first request. */
  specText: string | (() => string);
  /** Base URL the reference's "try it" sends requests to, absolute or relative, ending in `/web-data/v1`. */
  apiBaseUrl: string;
  /** Pre-filled into the `apiKey` security scheme so "try it" works at once. */
  demoKey?: string;
  /** Working inputs per operationId (see examples.ts), filled into the page's copy of the document. */
  examples?: Record<string, OperationInputs>;
  /** Markdown appended to the page's introduction: the table of kinds of fact (see src/contract/fact-kinds.ts). */
  kindsOfFact?: () => string;
}

/** What "try it" needs to send a request that works: path parameter values and a JSON body. */
export interface OperationInputs {
  pathParameters: Record<string, string>;
  body?: unknown;
}

/** The document's security scheme name (components.securitySchemes). */
const SECURITY_SCHEME = 'apiKey';
/** The bundle URL carries a content hash, so it may be cached for good. */
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;
const HASH_CHARS = 12;
export const DOCS_PATH = '/docs';
export const SPEC_YAML_PATH = '/openapi.yaml';
export const SPEC_JSON_PATH = '/openapi.json';
/** The document with examples filled in, for the reference page only (the raw one stays as written). */
export const DOCS_SPEC_PATH = `${DOCS_PATH}/openapi.json`;

interface Bundle {
  path: string;
  body: Buffer;
}

let bundle: Bundle | undefined;

/** Reads the Scalar standalone bundle once per process; its URL names its content hash. */
function scalarBundle(): Bundle {
  if (!bundle) {
    const file = createRequire(import.meta.url).resolve(
      '@scalar/api-reference/browser/standalone.js',
    );
    const body = readFileSync(file);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, HASH_CHARS);
    bundle = { path: `${DOCS_PATH}/assets/scalar-api-reference.${hash}.js`, body };
  }
  return bundle;
}

interface ParameterObject {
  name?: string;
  in?: string;
  example?: unknown;
}
type OperationObject = {
  operationId?: string;
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
};

/** A copy of the document (as JSON text) with `example` set on path parameters and JSON request bodies. */
export function withExamples(
  documentJson: string,
  examples: Record<string, OperationInputs>,
): string {
  const document = JSON.parse(documentJson) as { paths?: Record<string, Record<string, unknown>> };
  for (const pathItem of Object.values(document.paths ?? {})) {
    const shared = (pathItem.parameters ?? []) as ParameterObject[];
    for (const value of Object.values(pathItem)) {
      const op = value as OperationObject;
      const inputs =
        op && typeof op === 'object' && op.operationId ? examples[op.operationId] : undefined;
      if (!inputs) continue;
      for (const parameter of [...shared, ...(op.parameters ?? [])]) {
        if (parameter.in === 'path' && parameter.name && parameter.name in inputs.pathParameters)
          parameter.example = inputs.pathParameters[parameter.name];
      }
      const json = op.requestBody?.content?.['application/json'];
      if (json && inputs.body !== undefined) json.example = inputs.body;
    }
  }
  return JSON.stringify(document);
}

/** The page's copy of the document: working examples filled in and the kinds-of-fact table in its introduction. */
function docsCopy(documentJson: string, options: DocsOptions): string {
  const withInputs = options.examples ? withExamples(documentJson, options.examples) : documentJson;
  if (!options.kindsOfFact) return withInputs;
  const document = JSON.parse(withInputs) as { info?: { description?: string } };
  document.info = {
    ...document.info,
    description: `${document.info?.description ?? ''}\n\n## Kinds of fact\n\n${options.kindsOfFact()}`,
  };
  return JSON.stringify(document);
}

/** Registers `GET /openapi.yaml`, `GET /openapi.json`, `GET /docs` and the bundle on `app`. */
export function mountDocs<E extends Env>(app: Hono<E>, options: DocsOptions): void {
  if (!options.apiBaseUrl) throw new Error('mountDocs: apiBaseUrl is required');
  // Built on first request, once: the document's text and its JSON form cost startup time that
  // a mock which is never asked for its docs should not pay.
  let texts: { yaml: string; json: string; docs: string } | undefined;
  const documentTexts = () => {
    if (!texts) {
      const yaml = typeof options.specText === 'function' ? options.specText() : options.specText;
      if (!yaml.trim()) throw new Error('mountDocs: specText is empty');
      // The YAML anchors the document uses are expanded by the parser.
      const json = JSON.stringify(parseYaml(yaml));
      texts = { yaml, json, docs: docsCopy(json, options) };
    }
    return texts;
  };
  if (typeof options.specText === 'string') documentTexts();
  const { path: bundlePath, body: bundleBody } = scalarBundle();

  app.get(SPEC_YAML_PATH, (c) =>
    c.body(documentTexts().yaml, 200, { 'content-type': 'application/yaml; charset=utf-8' }),
  );
  app.get(SPEC_JSON_PATH, (c) =>
    c.body(documentTexts().json, 200, { 'content-type': 'application/json; charset=utf-8' }),
  );
  if (options.examples || options.kindsOfFact)
    app.get(DOCS_SPEC_PATH, (c) =>
      c.body(documentTexts().docs, 200, { 'content-type': 'application/json; charset=utf-8' }),
    );
  app.get(bundlePath, (c) =>
    c.body(new Uint8Array(bundleBody), 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': `public, max-age=${ONE_YEAR_SECONDS}, immutable`,
    }),
  );
  app.get(
    DOCS_PATH,
    Scalar({
      pageTitle: 'Web Data API (mock) reference',
      url: options.examples || options.kindsOfFact ? DOCS_SPEC_PATH : SPEC_JSON_PATH,
      cdn: bundlePath,
      servers: [{ url: options.apiBaseUrl, description: 'This server' }],
      authentication: options.demoKey
        ? {
            preferredSecurityScheme: SECURITY_SCHEME,
            securitySchemes: { [SECURITY_SCHEME]: { value: options.demoKey } },
          }
        : undefined,
      withDefaultFonts: false,
      telemetry: false,
      // The AI agent panel fetches a registry from scalar.com on load; off, so the page stays local.
      agent: { disabled: true },
      // Requests go straight to the server above; never through Scalar's hosted proxy.
      proxyUrl: undefined,
      showDeveloperTools: 'never',
      // Twenty operations: list them all in the sidebar rather than behind six collapsed tags.
      defaultOpenAllTags: true,
      documentDownloadType: 'both',
    }),
  );
}
