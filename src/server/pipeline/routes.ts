/**
 * @module routes
 * Path templates from the document, turned into what the app needs: Hono paths in an order where
 * concrete segments beat templated ones, strict extraction of path parameters from the raw URL,
 * and the methods a path allows (for 405); the last two from the shared router in src/contract.
 */
import { createOperationRouter, type HttpMethod, type Operation } from '../../contract/index.js';

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
export function byPathSpecificity(
  operations: readonly Operation[],
): { path: string; operations: Partial<Record<HttpMethod, Operation>> }[] {
  const groups = new Map<string, Partial<Record<HttpMethod, Operation>>>();
  for (const op of operations) groups.set(op.path, { ...groups.get(op.path), [op.method]: op });
  const rank = (path: string) =>
    path
      .split('/')
      .map((s) => (PARAM.test(s) ? '1' : '0'))
      .join('');
  return [...groups]
    .sort(([a], [b]) =>
      rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : a < b ? -1 : a > b ? 1 : 0,
    )
    .map(([path, ops]) => ({ path, operations: ops }));
}

/**
 * The methods a raw path allows, for the 404-or-405 decision: the shared router's answer (the
 * most specific template matching the path; GET implies HEAD), so the mock and the proxy agree.
 */
export function methodsByPath(operations: readonly Operation[]): (rawPath: string) => string[] {
  const router = createOperationRouter(operations);
  return (rawPath) => router.allowed(rawPath);
}
