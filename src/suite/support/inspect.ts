/**
 * @module support/inspect
 * The rules every response is held to, whatever request produced it: the shared `checkResponse`
 * (status declared, headers, rate-limit headers, media type, JSON, body schema, undeclared fields).
 * The suite's own part: severity by source and policy, and the exchange (URL, curl) on each finding.
 */
import {
  checkResponse,
  isBinding,
  isJsonMediaType,
  pointerPattern,
  type Operation,
  type ResponseBody,
  type ResponseFinding,
  type Source,
} from '../../contract/index.js';
import type { TargetExchange } from './client.js';
import type { CheckContext } from './check.js';
import { show, type Finding, type Severity } from './findings.js';

/** Documented and reference rules fail; inferred ones warn unless the run is strict. */
export function severityFor(source: Source, strict: boolean): Severity {
  return isBinding(source) || strict ? 'failure' : 'warning';
}

const RATE_LIMIT_LIMIT = 'x-ratelimit-limit';
/** Why a missing rate-limit header is only a warning (said once per run). */
export const RATE_LIMIT_HEADERS_MAY =
  'successful responses *may* carry x-ratelimit-limit and x-ratelimit-remaining (source, Limits rule 2); the vendor reference publishes no rate-limit headers';
/** Why an absent declared field is only a warning. */
const FIELD_PRESENCE_NOT_STATED =
  "neither the source nor the vendor reference marks record fields required (the reference's own responses leave many out); the document requires only identifiers and the presence the source states (DECISIONS.md 10)";
/** Why a conflict's other form is only a note. */
const CONFLICT_FORMS =
  'where the source and the vendor reference disagree, the document accepts both forms (DECISIONS.md 75)';
/** Why any 4xx is an acceptable answer to malformed input. */
export const MALFORMED_INPUT_NOT_SHOWN =
  'responses to malformed input are "not shown" (source, Errors rule 3): any 4xx is accepted, a 5xx is a failure';

export interface InspectOptions {
  /** A 4xx is an acceptable answer whatever the document declares (malformed input, a refused inferred shape). */
  anyClientError?: boolean;
}

/** The fields of a finding that come from the exchange itself. */
export function about(
  op: Operation,
  ex: TargetExchange,
): Pick<Finding, 'operationId' | 'method' | 'url' | 'status' | 'curl'> {
  return {
    operationId: op.operationId,
    method: ex.spec.method,
    url: ex.url,
    status: ex.status,
    curl: ex.curl,
  };
}

/** The body as the client read it: parsed JSON, JSON that did not parse (or was empty), or not JSON at all. */
function bodyOf(ex: TargetExchange): ResponseBody {
  if (ex.spec.method === 'HEAD') return { kind: 'none' };
  const encoding = ex.encodingError ? { encodingError: ex.encodingError } : {};
  if (ex.json !== undefined) return { kind: 'json', value: ex.json, ...encoding };
  if (isJsonMediaType(ex.mediaType))
    return {
      kind: 'invalid-json',
      text: ex.text,
      error: ex.jsonError ?? 'empty body',
      ...encoding,
    };
  return { kind: 'streamed' };
}

/** A finding to report, and the key it is said under once per run (when it is said once). */
interface Reported {
  finding: Finding;
  onceKey?: string;
}

/** The one exchange under inspection, and the run it belongs to. */
interface Inspected {
  op: Operation;
  ex: TargetExchange;
  at: ReturnType<typeof about>;
  inspect: InspectOptions;
  strict: boolean;
}

/** A declared field left out: a warning, once per run per field pattern. */
function absentField(f: ResponseFinding, { op, ex, at }: Inspected): Reported {
  const pattern = pointerPattern(f.pointer);
  return {
    onceKey: `absent-field ${op.operationId} ${ex.status} ${pattern}`,
    finding: {
      ...at,
      severity: 'warning',
      rule: f.rule,
      pointer: f.pointer,
      expected: `the field (pattern ${pattern}), which the mock always sends`,
      actual: 'absent',
      message: `field ${f.pointer} is declared but absent; its presence is not stated, so this is a warning`,
      source: op.source,
      assumption: FIELD_PRESENCE_NOT_STATED,
    },
  };
}

/** The target uses the other side of a conflict the document accepts: a note, once per run. */
function otherForm(f: ResponseFinding, { op, at }: Inspected): Reported {
  const pattern = pointerPattern(f.pointer);
  return {
    onceKey: `conflict-form ${op.operationId} ${pattern} ${String(f.actual)}`,
    finding: {
      ...at,
      severity: 'warning',
      rule: f.rule,
      pointer: f.pointer,
      expected: f.expected,
      actual: String(f.actual),
      message: `the target sends ${String(f.actual)} at ${pattern || '(body)'}; the document accepts it, the mock serves the other form`,
      source: f.source,
      assumption: CONFLICT_FORMS,
    },
  };
}

/** A rule broken: its severity by source, or a warning for a 4xx where any 4xx will do. */
function violationOf(f: ResponseFinding, { ex, at, inspect, strict }: Inspected): Reported {
  const clientError = ex.status >= 400 && ex.status < 500;
  if (inspect.anyClientError && clientError && f.rule === 'undeclared-status')
    return {
      finding: {
        ...at,
        severity: 'warning',
        rule: 'bad-input',
        pointer: f.pointer,
        expected: f.expected,
        actual: show(f.actual),
        message: `a ${ex.status} answer to malformed input or a refused request: ${f.message}`,
        source: 'inferred',
        assumption: MALFORMED_INPUT_NOT_SHOWN,
      },
    };
  const message = f.rule === 'inferred-shape' ? `inferred shape differs: ${f.message}` : f.message;
  return {
    finding: {
      ...at,
      severity: severityFor(f.source, strict),
      rule: f.rule,
      pointer: f.pointer,
      expected: f.expected,
      actual: show(f.actual),
      message,
      source: f.source,
    },
  };
}

/** Absent "may" headers on a success: one warning per run, not one per response. */
function rateLimitHeadersAbsent(
  ctx: CheckContext,
  { op, ex, at }: Inspected,
): Reported | undefined {
  const declared =
    ex.status >= 200 && ex.status < 300 ? ctx.validators.responseFor(op, ex.status) : undefined;
  if (
    !declared?.headers.some((h) => h.name === RATE_LIMIT_LIMIT) ||
    ex.headers.get(RATE_LIMIT_LIMIT) !== null
  )
    return undefined;
  return {
    onceKey: 'rate-limit-headers',
    finding: {
      ...at,
      severity: 'warning',
      rule: 'rate-limit-headers',
      pointer: `header:${RATE_LIMIT_LIMIT}`,
      expected: 'x-ratelimit-limit and x-ratelimit-remaining (optional)',
      actual: 'absent',
      message: 'the target sends no rate-limit headers (said once per run)',
      source: 'documented',
      assumption: RATE_LIMIT_HEADERS_MAY,
    },
  };
}

/** Generic findings for one response. Undeclared fields come back separately, for de-duplication. */
export function inspectExchange(
  ctx: CheckContext,
  op: Operation,
  ex: TargetExchange,
  inspect: InspectOptions = {},
): { findings: Finding[]; undeclared: { pointer: string; sample: unknown }[] } {
  const findings: Finding[] = [];
  const undeclared: { pointer: string; sample: unknown }[] = [];
  const inspected: Inspected = { op, ex, at: about(op, ex), inspect, strict: ctx.options.strict };
  /** Notes said once per run per key (every check sees the same records). */
  const report = ({ finding, onceKey }: Reported): void => {
    if (onceKey !== undefined) {
      if (ctx.once.has(onceKey)) return;
      ctx.once.add(onceKey);
    }
    findings.push(finding);
  };
  const checked = checkResponse(
    ctx.validators,
    op,
    {
      status: ex.status,
      method: ex.spec.method,
      header: (name) => ex.headers.get(name),
      body: bodyOf(ex),
    },
    { undeclaredFields: true, absentFields: true, formsSeen: true },
  );
  for (const f of checked) {
    if (f.kind === 'undeclared') undeclared.push({ pointer: f.pointer, sample: f.actual });
    else if (f.kind === 'absent') report(absentField(f, inspected));
    else if (f.kind === 'form') report(otherForm(f, inspected));
    else report(violationOf(f, inspected));
  }
  const headersAbsent = rateLimitHeadersAbsent(ctx, inspected);
  if (headersAbsent) report(headersAbsent);
  return { findings, undeclared };
}
