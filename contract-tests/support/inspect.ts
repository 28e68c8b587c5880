/**
 * @module support/inspect
 * The rules every response is held to, whatever request produced it: the status is declared, the
 * media type is the declared one, the body fits the schema for its operation and status, declared
 * headers are there, rate-limit headers agree, and fields the schema does not declare are noted.
 */
import type { Operation, Source } from '../../src/contract/index.js';
import { isJsonType, type Exchange } from './client.js';
import type { CheckContext } from './context.js';
import { show, type Finding, type Severity } from './findings.js';
import { undeclaredFields } from './undeclared.js';

const RATE_LIMIT_HEADER = /^header:x-ratelimit-/;

/** Documented rules fail; inferred ones warn unless the run is strict. */
export function severityFor(source: Source, strict: boolean): Severity {
  return source === 'documented' || strict ? 'failure' : 'warning';
}

/** The fields of a finding that come from the exchange itself. */
export function about(op: Operation, ex: Exchange): Pick<Finding, 'operationId' | 'method' | 'url' | 'status' | 'curl'> {
  return { operationId: op.operationId, method: ex.spec.method, url: ex.url, status: ex.status, curl: ex.curl };
}

/** Generic findings for one response. Undeclared fields come back separately, for de-duplication. */
export function inspectExchange(ctx: CheckContext, op: Operation, ex: Exchange): { findings: Finding[]; undeclared: { pointer: string; sample: unknown }[] } {
  const { validators, options } = ctx;
  const findings: Finding[] = [];
  const at = about(op, ex);
  const response = validators.responseFor(op, ex.status);
  if (!response) {
    const declared = [...op.responses.keys()].join(', ');
    findings.push({ ...at, severity: 'failure', rule: 'undeclared-status', pointer: 'status', expected: `one of the declared statuses: ${declared}`, actual: String(ex.status), message: `status ${ex.status} is not declared for ${op.operationId}`, source: 'documented' });
    return { findings, undeclared: [] };
  }
  const hasBody = ex.spec.method !== 'HEAD' && response.contentTypes.length > 0;
  if (hasBody) {
    const jsonDeclared = response.contentTypes.some(isJsonType);
    if (!response.contentTypes.includes(ex.mediaType)) {
      findings.push({ ...at, severity: jsonDeclared ? 'failure' : severityFor(response.source, options.strict), rule: 'content-type', pointer: 'header:content-type', expected: response.contentTypes.join(' or '), actual: show(ex.headers.get('content-type')), message: `content type is not the declared one`, source: jsonDeclared ? 'documented' : response.source });
    } else if (isJsonType(ex.mediaType) && ex.jsonError) {
      findings.push({ ...at, severity: 'failure', rule: 'json', pointer: '', expected: 'a JSON body', actual: show(ex.text), message: `body is not valid JSON: ${ex.jsonError}`, source: 'documented' });
    }
  }
  if (hasBody && ex.json !== undefined) {
    for (const v of validators.checkResponseBody(op, ex.status, ex.json)) {
      findings.push({ ...at, severity: severityFor(v.source, options.strict), rule: v.source === 'inferred' ? 'inferred-shape' : 'schema', pointer: v.pointer, expected: v.rule, actual: show(v.actual), message: v.source === 'inferred' ? `inferred shape differs: ${v.message}` : v.message, source: v.source });
    }
  }
  for (const v of validators.checkResponseHeaders(op, ex.status, (name) => ex.headers.get(name))) {
    // The rate-limit headers are stated by the source for every success, whatever the operation's shape source.
    const rateLimit = RATE_LIMIT_HEADER.test(v.pointer);
    const source: Source = rateLimit ? 'documented' : v.source;
    findings.push({ ...at, severity: severityFor(source, options.strict), rule: rateLimit ? 'rate-limit-headers' : 'headers', pointer: v.pointer, expected: v.rule, actual: show(v.actual), message: v.message, source });
  }
  const limit = ex.headers.get('x-ratelimit-limit');
  const remaining = ex.headers.get('x-ratelimit-remaining');
  if (limit !== null && remaining !== null && Number(remaining) > Number(limit)) {
    findings.push({ ...at, severity: 'failure', rule: 'rate-limit-remaining', pointer: 'header:x-ratelimit-remaining', expected: `at most x-ratelimit-limit (${limit})`, actual: remaining, message: 'x-ratelimit-remaining exceeds x-ratelimit-limit', source: 'documented' });
  }
  const undeclared = hasBody && ex.json !== undefined ? undeclaredFields(ex.json, response.jsonSchema) : [];
  return { findings, undeclared };
}
