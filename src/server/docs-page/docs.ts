/**
 * @module docs
 * The offline API reference: the raw document (`/openapi.yaml`, `/openapi.json`), and `/docs`, a
 * small page of our own (docs-page/: a fixed HTML shell, a style sheet and a plain-DOM script,
 * all served from here, so the page loads nothing from elsewhere and works offline; its CSP allows
 * only this origin). The page reads its settings (`/docs/config.json`: which document, the base
 * URL, the demo key) and a copy of the document with this mock's working examples
 * (`/examples.json`) filled into every operation's path parameters and request body, so "Send"
 * answers 200 on every operation as it stands, and the table of kinds of fact in its introduction.
 */
import { readFileSync } from 'node:fs';
import type { Env, Hono } from 'hono';
import { parse as parseYaml } from 'yaml';
import { assetPaths, CONTENT_SECURITY_POLICY, PAGE_STYLE, pageHtml } from './shell.js';

export interface DocsOptions {
  /** The document's text (see `readSpecText` in src/contract), or a function that makes it on first request. */
  specText: string | (() => string);
  /** Base URL the page names, absolute or relative, ending in `/web-data/v1`; "Send" goes to its path on the page's own origin. */
  apiBaseUrl: string;
  /** Pre-filled into the page's key field so "Send" works at once. */
  demoKey?: string;
  /** Working inputs per operationId (see examples.ts), filled into the page's copy of the document. */
  examples?: Record<string, OperationInputs>;
  /** Markdown appended to the page's introduction: the table of kinds of fact (see src/contract/fact-kinds.ts). */
  kindsOfFact?: () => string;
}

/** What "Send" needs to send a request that works: path parameter values and a JSON body. */
export interface OperationInputs {
  pathParameters: Record<string, string>;
  body?: unknown;
}

export const DOCS_PATH = '/docs';
export const SPEC_YAML_PATH = '/openapi.yaml';
export const SPEC_JSON_PATH = '/openapi.json';
/** The document with examples filled in, for the reference page only (the raw one stays as written). */
export const DOCS_SPEC_PATH = `${DOCS_PATH}/openapi.json`;

/** The page's script, beside this module in the sources and in dist/ alike (tsc copies it: allowJs). */
const PAGE_SCRIPT_URL = new URL('./page.js', import.meta.url);
let pageScript: string | undefined;
const readPageScript = () => (pageScript ??= readFileSync(PAGE_SCRIPT_URL, 'utf8'));

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

/** Registers `GET /openapi.yaml`, `GET /openapi.json`, `GET /docs` and the page's files on `app`. */
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
  const withCopy = Boolean(options.examples || options.kindsOfFact);
  const paths = assetPaths(DOCS_PATH);
  const config = JSON.stringify({
    document: withCopy ? DOCS_SPEC_PATH : SPEC_JSON_PATH,
    apiBaseUrl: options.apiBaseUrl,
    demoKey: options.demoKey ?? null,
  });
  // Small files that change with the package: the browser asks again each time (no-cache).
  const file = (contentType: string, extra: Record<string, string> = {}) => ({
    'content-type': contentType,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    ...extra,
  });

  app.get(SPEC_YAML_PATH, (c) =>
    c.body(documentTexts().yaml, 200, { 'content-type': 'application/yaml; charset=utf-8' }),
  );
  app.get(SPEC_JSON_PATH, (c) =>
    c.body(documentTexts().json, 200, { 'content-type': 'application/json; charset=utf-8' }),
  );
  if (withCopy)
    app.get(DOCS_SPEC_PATH, (c) =>
      c.body(documentTexts().docs, 200, { 'content-type': 'application/json; charset=utf-8' }),
    );
  app.get(DOCS_PATH, (c) =>
    c.body(
      pageHtml(DOCS_PATH),
      200,
      file('text/html; charset=utf-8', {
        'content-security-policy': CONTENT_SECURITY_POLICY,
        'referrer-policy': 'no-referrer',
      }),
    ),
  );
  app.get(paths.config, (c) => c.body(config, 200, file('application/json; charset=utf-8')));
  app.get(paths.script, (c) =>
    c.body(readPageScript(), 200, file('text/javascript; charset=utf-8')),
  );
  app.get(paths.style, (c) => c.body(PAGE_STYLE, 200, file('text/css; charset=utf-8')));
}
