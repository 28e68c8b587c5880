/**
 * @module evidence/declared
 * Which fields of a response the document does not declare, as pointer patterns, for observe.ts
 * (it keeps no personal-looking value of those). One reading of the document for everything that
 * builds a profile: the suite, the proxy and recordings.
 */
import { collectUndeclared, declaredResponse, type Operation } from '../contract/index.js';

/**
 * The undeclared fields of `body` as the answer of `operation` with `status`; undefined (every
 * field counts as undeclared) when the operation is unknown or the status declares no JSON body,
 * and when the list would be incomplete (more patterns than the bound, or a name cut), so a
 * personal-looking value is never kept for want of a pattern.
 */
export function undeclaredPatterns(
  operation: Operation | undefined,
  status: number,
  body: unknown,
): string[] | undefined {
  const schema = operation && declaredResponse(operation, status)?.jsonSchema;
  if (!schema || body === undefined) return undefined;
  const { fields, omitted, cut } = collectUndeclared(schema, body);
  return omitted > 0 || cut ? undefined : fields.map((f) => f.pattern);
}
