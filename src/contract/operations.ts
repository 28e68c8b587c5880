/**
 * @module operations
 * The operation table: every operation of the (dereferenced, trimmed) document with its
 * parameters, request body and responses, as the rest of the project reads them; and the lookup
 * of the response declared for a status.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { listingExtensions } from './list-parameters.js';
import {
  HTTP_METHODS,
  isSource,
  type Operation,
  type Parameter,
  type ResponseSpec,
  type Schema,
  type Source,
} from './model.js';
import { sinceOf } from './releases.js';

function sourceOf(node: unknown, fallback: Source): Source {
  const value =
    node && typeof node === 'object' ? (node as Record<string, unknown>)['x-source'] : undefined;
  return isSource(value) ? value : fallback;
}

export function collectOperations(document: OpenAPIV3_1.Document): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    for (const method of HTTP_METHODS) {
      const op = (item as Record<string, unknown>)[method] as
        OpenAPIV3_1.OperationObject | undefined;
      if (!op) continue;
      const source = sourceOf(op, 'documented');
      const since = sinceOf(op) ?? '1.0.0';
      const params = [
        ...((item.parameters ?? []) as OpenAPIV3_1.ParameterObject[]),
        ...((op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]),
      ];
      operations.push({
        operationId: op.operationId!,
        method,
        path,
        summary: op.summary ?? '',
        family: op.tags?.[0] ?? '',
        source,
        since,
        parameters: params.map((p) => ({
          name: p.name,
          in: p.in as Parameter['in'],
          required: p.required ?? false,
          schema: (p.schema ?? {}) as Schema,
          commaJoined: (p.schema as Schema | undefined)?.type === 'array' && p.explode === false,
          source: sourceOf(p, source),
          since: sinceOf(p) ?? since,
          ...listingExtensions(p, `${method.toUpperCase()} ${path}`),
        })),
        requestBody: op.requestBody
          ? {
              required: (op.requestBody as OpenAPIV3_1.RequestBodyObject).required ?? false,
              schema: ((op.requestBody as OpenAPIV3_1.RequestBodyObject).content['application/json']
                ?.schema ?? {}) as Schema,
            }
          : undefined,
        responses: collectResponses(op, source),
      });
    }
  }
  return operations;
}

function collectResponses(
  op: OpenAPIV3_1.OperationObject,
  opSource: Source,
): Map<string, ResponseSpec> {
  const responses = new Map<string, ResponseSpec>();
  for (const [status, value] of Object.entries(op.responses ?? {})) {
    const response = value as OpenAPIV3_1.ResponseObject;
    const headers = Object.entries(response.headers ?? {}).map(([name, h]) => {
      const header = h as OpenAPIV3_1.HeaderObject;
      return {
        name: name.toLowerCase(),
        required: header.required ?? false,
        schema: (header.schema ?? {}) as Schema,
      };
    });
    const content = response.content ?? {};
    responses.set(status, {
      status,
      description: response.description,
      source: sourceOf(response, opSource),
      headers,
      contentTypes: Object.keys(content),
      jsonSchema: content['application/json']?.schema as Schema | undefined,
    });
  }
  return responses;
}

/**
 * The declared response for a status: the exact code, then its `4XX`-style range, then `default`.
 * Undefined means the status is not part of the contract.
 */
export function declaredResponse(op: Operation, status: number): ResponseSpec | undefined {
  return (
    op.responses.get(String(status)) ??
    op.responses.get(`${String(status)[0]}XX`) ??
    op.responses.get('default')
  );
}
