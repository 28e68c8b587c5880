/**
 * @module routes
 * Path templates from the document, turned into what the app needs: Hono paths in an order where
 * concrete segments beat templated ones, strict extraction of path parameters from the raw URL,
 * and the methods a path allows (for 405).
 */
import type { HttpMethod, InputProblem, Operation } from '../contract/index.js';
import { decodePathSegment } from './query-string.js';

const PARAM = /^\{(.+)\}$/;

/** `/products/{product_id}` -> `/products/:product_id`. */
export function toHonoPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/**
 * Operations grouped by path, most specific first: at the first segment where two templates
 * differ, a literal segment sorts before a parameter, so `/product-parts/attributes` is never
 * taken for an `{orderable_id}`.
 */
export function byPathSpecificity(operations: readonly Operation[]): { path: string; operations: Partial<Record<HttpMethod, Operation>> }[] {
  const groups = new Map<string, Partial<Record<HttpMethod, Operation>>>();
  for (const op of operations) groups.set(op.path, { ...groups.get(op.path), [op.method]: op });
  const rank = (path: string) => path.split('/').map((s) => (PARAM.test(s) ? '1' : '0')).join('');
  return [...groups]
    .sort(([a], [b]) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : a < b ? -1 : a > b ? 1 : 0))
    .map(([path, ops]) => ({ path, operations: ops }));
}

/** Path parameters decoded strictly from the raw (still percent-encoded) path below the base path. */
export function pathParameters(template: string, rawPath: string): { params: Record<string, string>; problems: InputProblem[] } {
  const params: Record<string, string> = {};
  const problems: InputProblem[] = [];
  const names = template.split('/');
  const raw = rawPath.split('/');
  names.forEach((segment, k) => {
    const match = PARAM.exec(segment);
    if (!match) return;
    const decoded = decodePathSegment(raw[k] ?? '');
    if (decoded === undefined) {
      problems.push({ in: 'path', name: match[1], rule: 'valid percent-encoding (RFC 3986)', message: `path parameter "${match[1]}" has a malformed percent-escape`, received: raw[k] });
    } else params[match[1]] = decoded;
  });
  return { params, problems };
}

/** Compiles templates to matchers over raw paths, for the 404-or-405 decision. */
export function methodsByPath(operations: readonly Operation[]): (rawPath: string) => string[] {
  const matchers = byPathSpecificity(operations).map(({ path, operations: ops }) => {
    const pattern = new RegExp(`^${path.split('/').map((s) => (PARAM.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);
    const methods = Object.keys(ops).map((m) => m.toUpperCase());
    // GET routes also answer HEAD (the body dropped), as HTTP allows.
    if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
    return { pattern, methods };
  });
  return (rawPath) => matchers.find((m) => m.pattern.test(rawPath))?.methods ?? [];
}
