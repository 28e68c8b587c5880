/**
 * @module proxy/check
 * Judges one live response against the document with the shared validators: the status must be
 * declared, the declared headers present and typed, the media type declared, and a JSON body must
 * match its schema. Undeclared fields come back as findings of their own (warnings).
 */
import type { Operation, Validators, Violation } from '../contract/index.js';
import type { Finding } from './report.js';
import { findUndeclared } from './undeclared.js';

/** `streamed`: a file passed through (headers checked only); `too-large`: JSON over the buffering cap, or too deep to check. */
export type ResponseBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'invalid-json'; text: string }
  | { kind: 'streamed' }
  | { kind: 'too-large' };

const SNIPPET_CHARS = 200;

export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

export function isJsonMediaType(mediaType: string): boolean {
  return /^application\/([\w.+-]+\+)?json$/.test(mediaType);
}

export function checkResponse(validators: Validators, op: Operation, status: number, headers: Headers, body: ResponseBody): Finding[] {
  const declared = validators.responseFor(op, status);
  const violation = (v: Violation): Finding => ({ kind: 'violation', violation: v });
  if (!declared) {
    return [violation({ pointer: 'status', rule: `declared statuses: ${[...op.responses.keys()].join(', ')}`, message: `status ${status} is not declared for ${op.operationId}`, source: op.source, actual: status })];
  }
  const findings = validators.checkResponseHeaders(op, status, (name) => headers.get(name)).map(violation);
  const mediaType = mediaTypeOf(headers.get('content-type'));
  if (body.kind !== 'none' && declared.contentTypes.length > 0 && !declared.contentTypes.includes(mediaType)) {
    findings.push(violation({ pointer: 'header:content-type', rule: `content-type: ${declared.contentTypes.join(', ')}`, message: `content-type ${mediaType || '(none)'} is not declared`, source: declared.source, actual: headers.get('content-type') }));
  }
  if (body.kind === 'invalid-json') {
    findings.push(violation({ pointer: '', rule: 'valid JSON (RFC 8259)', message: 'body is not valid JSON', source: declared.source, actual: body.text.slice(0, SNIPPET_CHARS) }));
  } else if (body.kind === 'json' && declared.jsonSchema) {
    findings.push(...validators.checkResponseBody(op, status, body.value).map(violation));
    for (const field of findUndeclared(declared.jsonSchema, body.value)) findings.push({ kind: 'undeclared', field, source: declared.source });
  }
  return findings;
}
