/**
 * @module support/inspect
 * The rules every response is held to, whatever request produced it: the shared `checkResponse`
 * (status declared, headers, rate-limit headers, media type, JSON, body schema, undeclared fields).
 * The suite's own part: severity by source and policy, and the exchange (URL, curl) on each finding.
 */
import { checkResponse, isBinding, isJsonMediaType, type Operation, type ResponseBody, type Source } from '../../src/contract/index.js';
import type { Exchange } from './client.js';
import type { CheckContext } from './context.js';
import { show, type Finding, type Severity } from './findings.js';

/** Documented and reference rules fail; inferred ones warn unless the run is strict. */
export function severityFor(source: Source, strict: boolean): Severity {
  return isBinding(source) || strict ? 'failure' : 'warning';
}

/** The fields of a finding that come from the exchange itself. */
export function about(op: Operation, ex: Exchange): Pick<Finding, 'operationId' | 'method' | 'url' | 'status' | 'curl'> {
  return { operationId: op.operationId, method: ex.spec.method, url: ex.url, status: ex.status, curl: ex.curl };
}

/** The body as the client read it: parsed JSON, JSON that did not parse (or was empty), or not JSON at all. */
function bodyOf(ex: Exchange): ResponseBody {
  if (ex.spec.method === 'HEAD') return { kind: 'none' };
  if (ex.json !== undefined) return { kind: 'json', value: ex.json };
  if (isJsonMediaType(ex.mediaType)) return { kind: 'invalid-json', text: ex.text, error: ex.jsonError ?? 'empty body' };
  return { kind: 'streamed' };
}

/** Generic findings for one response. Undeclared fields come back separately, for de-duplication. */
export function inspectExchange(ctx: CheckContext, op: Operation, ex: Exchange): { findings: Finding[]; undeclared: { pointer: string; sample: unknown }[] } {
  const { validators, options } = ctx;
  const findings: Finding[] = [];
  const undeclared: { pointer: string; sample: unknown }[] = [];
  const at = about(op, ex);
  const checked = checkResponse(validators, op, { status: ex.status, method: ex.spec.method, header: (name) => ex.headers.get(name), body: bodyOf(ex) }, { undeclaredFields: true });
  for (const f of checked) {
    if (f.kind === 'undeclared') {
      undeclared.push({ pointer: f.pointer, sample: f.actual });
      continue;
    }
    const message = f.rule === 'inferred-shape' ? `inferred shape differs: ${f.message}` : f.message;
    findings.push({ ...at, severity: severityFor(f.source, options.strict), rule: f.rule, pointer: f.pointer, expected: f.expected, actual: show(f.actual), message, source: f.source });
  }
  return { findings, undeclared };
}
