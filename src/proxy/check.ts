/**
 * @module proxy/check
 * Judges one live response against the document with the shared validators: the status must be
 * declared, the declared headers present and typed, the media type declared, and a JSON body must
 * match its schema. Undeclared fields come back as findings of their own (warnings). Findings use
 * the contract suite's vocabulary: a short `rule` name, `expected` (the document's rule), `actual`.
 */
import type { Operation, Source, Validators } from '../contract/index.js';
import { findUndeclared, sampleOf } from './undeclared.js';

/** `streamed`: a file passed through (headers checked only); `too-large`: JSON over the buffering cap, or too deep to check. */
export type ResponseBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'invalid-json'; text: string }
  | { kind: 'streamed' }
  | { kind: 'too-large' };

export interface Finding {
  /** `violation`: a rule of the document broken; `undeclared`: a field the document does not name. */
  kind: 'violation' | 'undeclared';
  /** Short rule name as the contract suite uses: schema, inferred-shape, headers, rate-limit-headers, content-type, json, undeclared-status, undeclared-field. */
  rule: string;
  /** JSON pointer into the body, `header:<name>`, or `status`. */
  pointer: string;
  /** What the document asks for, e.g. `type: string`. */
  expected: string;
  actual: unknown;
  message: string;
  source: Source;
}

const RATE_LIMIT_HEADER = /^header:x-ratelimit-/;

export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export function isJsonMediaType(mediaType: string): boolean {
  return /^application\/([\w.+-]+\+)?json$/.test(mediaType);
}

export function checkResponse(validators: Validators, op: Operation, status: number, headers: Headers, body: ResponseBody): Finding[] {
  const declared = validators.responseFor(op, status);
  if (!declared) {
    const statuses = [...op.responses.keys()].join(', ');
    return [{ kind: 'violation', rule: 'undeclared-status', pointer: 'status', expected: `one of the declared statuses: ${statuses}`, actual: status, message: `status ${status} is not declared for ${op.operationId}`, source: 'documented' }];
  }
  const findings: Finding[] = [];
  for (const v of validators.checkResponseHeaders(op, status, (name) => headers.get(name))) {
    // The source states the rate-limit headers for every success, whatever the shape's own source.
    const rateLimit = RATE_LIMIT_HEADER.test(v.pointer);
    findings.push({ kind: 'violation', rule: rateLimit ? 'rate-limit-headers' : 'headers', pointer: v.pointer, expected: v.rule, actual: v.actual, message: v.message, source: rateLimit ? 'documented' : v.source });
  }
  const mediaType = mediaTypeOf(headers.get('content-type'));
  if (body.kind !== 'none' && declared.contentTypes.length > 0 && !declared.contentTypes.includes(mediaType)) {
    const jsonDeclared = declared.contentTypes.some(isJsonMediaType);
    findings.push({ kind: 'violation', rule: 'content-type', pointer: 'header:content-type', expected: declared.contentTypes.join(' or '), actual: headers.get('content-type'), message: `content type ${mediaType || '(none)'} is not the declared one`, source: jsonDeclared ? 'documented' : declared.source });
  }
  if (body.kind === 'invalid-json') {
    findings.push({ kind: 'violation', rule: 'json', pointer: '', expected: 'a JSON body', actual: sampleOf(body.text), message: 'body is not valid JSON', source: 'documented' });
  } else if (body.kind === 'json' && declared.jsonSchema) {
    for (const v of validators.checkResponseBody(op, status, body.value)) {
      findings.push({ kind: 'violation', rule: v.source === 'inferred' ? 'inferred-shape' : 'schema', pointer: v.pointer, expected: v.rule, actual: sampleOf(v.actual), message: v.message, source: v.source });
    }
    for (const field of findUndeclared(declared.jsonSchema, body.value)) {
      findings.push({ kind: 'undeclared', rule: 'undeclared-field', pointer: field.pointer, expected: 'only fields the document declares', actual: field.sample, message: `${field.pointer} is not declared by the document`, source: declared.source });
    }
  }
  return findings;
}
