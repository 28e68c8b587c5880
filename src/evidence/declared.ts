/**
 * @module evidence/declared
 * Which fields of a response the document does not declare, as pointer patterns, for observe.ts
 * (it keeps no personal-looking value of those). One reading of the document for everything that
 * builds a profile: the suite, the proxy and recordings.
 */
import {
  declaredResponse,
  findUndeclared,
  pointerPattern,
  type Operation,
} from '../contract/index.js';

/**
 * The undeclared fields of `body` as the answer of `operation` with `status`; undefined (every
 * field counts as undeclared) when the operation is unknown or the status declares no JSON body.
 */
export function undeclaredPatterns(
  operation: Operation | undefined,
  status: number,
  body: unknown,
): string[] | undefined {
  const schema = operation && declaredResponse(operation, status)?.jsonSchema;
  if (!schema || body === undefined) return undefined;
  return [...new Set(findUndeclared(schema, body).map((f) => pointerPattern(f.pointer)))];
}
