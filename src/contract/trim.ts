/**
 * @module trim
 * Trimming the document to one release: the removal of everything whose `x-since` is newer than
 * the release asked for, in the dereferenced document and in the document as written.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { HTTP_METHODS } from './model.js';
import { existsIn, sinceOf, type Release } from './releases.js';

/**
 * Removes operations, parameters, properties and `oneOf`/`anyOf` branches whose `x-since` is newer
 * than `release`. The dereferenced tree shares objects, so a visited set keeps the walk linear.
 */
export function trimToRelease(document: OpenAPIV3_1.Document, release: Release): void {
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    const pathItem = item as Record<string, unknown>;
    for (const method of HTTP_METHODS) {
      if (pathItem[method] && !existsIn(sinceOf(pathItem[method]), release))
        delete pathItem[method];
    }
    if (!HTTP_METHODS.some((m) => pathItem[m]))
      delete (document.paths as Record<string, unknown>)[path];
  }
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  for (const [name, schema] of Object.entries(schemas))
    if (!existsIn(sinceOf(schema), release)) delete schemas[name];
  const seen = new Set<object>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    const obj = node as Record<string, unknown>;
    if (Array.isArray(obj.parameters)) {
      obj.parameters = obj.parameters.filter((p) => existsIn(sinceOf(p, document), release));
    }
    for (const combinator of ['oneOf', 'anyOf']) {
      if (Array.isArray(obj[combinator])) {
        obj[combinator] = (obj[combinator] as unknown[]).filter((s) =>
          existsIn(sinceOf(s, document), release),
        );
      }
    }
    const props = obj.properties as Record<string, unknown> | undefined;
    if (props && typeof props === 'object' && !Array.isArray(props)) {
      for (const [name, schema] of Object.entries(props)) {
        if (!existsIn(sinceOf(schema, document), release)) {
          delete props[name];
          if (Array.isArray(obj.required)) obj.required = obj.required.filter((r) => r !== name);
        }
      }
    }
    for (const child of Object.values(obj)) walk(child);
  };
  walk(document);
}
