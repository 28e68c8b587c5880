/**
 * @module request-side
 * A schema's `default` means "absent is fine" in a request and "always present" in an answer.
 * openapi-typescript's `defaultNonNullable` reads every default as the second, except in inline
 * request bodies and parameters; a request body that names a component schema
 * (`ProductPartSearchRequest`, its `SearchFilter`) got `limit`, `offset` and `operator` required,
 * though the mock fills them in. This hook makes a defaulted property optional in every component
 * schema a request body reaches. An answer that reuses such a schema echoes a request (the
 * search's `filters`), which carries what its client sent, so the member is not promised there
 * either; a schema only answers reach keeps its defaults present (DECISIONS.md, "Request types:
 * a default is optional").
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { parse } from 'yaml';

const SCHEMA_REF = '#/components/schemas/';
const COMPONENT_REF = /^#\/components\/(requestBodies|responses)\/(.+)$/;

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null;

/** Every component schema `start` reaches through `$ref`s (itself included, when a schema). */
function reachedSchemas(start: unknown, doc: Node, into: Set<string>): void {
  const stack: unknown[] = [start];
  const schemas = ((doc.components as Node | undefined)?.schemas ?? {}) as Node;
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...(node as unknown[]));
    else if (isNode(node)) {
      const ref = node.$ref;
      if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) {
        const name = ref.slice(SCHEMA_REF.length);
        if (!into.has(name)) {
          into.add(name);
          stack.push(schemas[name]);
        }
      } else if (typeof ref === 'string' && COMPONENT_REF.test(ref)) {
        const [, kind, name] = COMPONENT_REF.exec(ref)!;
        stack.push(((doc.components as Node)[kind] as Node | undefined)?.[name]);
      }
      stack.push(...Object.values(node));
    }
  }
}

/** The component schemas request bodies reach. */
export function requestSchemas(doc: Node): Set<string> {
  const requests = new Set<string>();
  for (const item of Object.values((doc.paths ?? {}) as Node))
    for (const operation of Object.values(isNode(item) ? item : {})) {
      if (!isNode(operation)) continue;
      reachedSchemas(operation.requestBody, doc, requests);
    }
  return requests;
}

/** openapi-typescript's `transformProperty`: a defaulted property of a request-side component schema becomes optional. */
export function requestDefaultsOptional(
  source: URL | string,
): (
  property: ts.PropertySignature,
  schema: unknown,
  options: { path?: string },
) => ts.PropertySignature | undefined {
  const text = source instanceof URL ? readFileSync(fileURLToPath(source), 'utf8') : source;
  const doc = parse(text) as Node;
  const requests = requestSchemas(doc);
  return (property, schema, options) => {
    const path = options.path ?? '';
    if (!path.startsWith(SCHEMA_REF) || property.questionToken) return undefined;
    if (!isNode(schema) || schema.default === undefined) return undefined;
    const owner = path.slice(SCHEMA_REF.length).split('/')[0];
    if (!requests.has(owner)) return undefined;
    return ts.factory.updatePropertySignature(
      property,
      property.modifiers,
      property.name,
      ts.factory.createToken(ts.SyntaxKind.QuestionToken),
      property.type,
    );
  };
}
