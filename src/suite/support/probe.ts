/**
 * @module support/probe
 * One check's view of the target: sends requests for an operation, holds every response to the
 * generic rules (`inspect`), lets the check add its own findings, and notes which operation and
 * status each request exercised (for the coverage table).
 */
import { pointerPattern, type Operation, type Source } from '../../contract/index.js';
import { TargetError, type TargetExchange, type RequestSpec } from './client.js';
import { CheckAborted, type CheckContext, type ExerciseNote } from './check.js';
import { redactSecrets, redactStringValues } from '../../redaction.js';
import { show, type Finding, type Severity } from './findings.js';
import { about, inspectExchange, MALFORMED_INPUT_NOT_SHOWN, severityFor } from './inspect.js';

/** The rule of a finding that says a check (or part of one) could not run, and why. */
export const NOT_RUN = 'not-run';

export interface CallSpec extends Pick<
  RequestSpec,
  'query' | 'body' | 'rawBody' | 'auth' | 'headers' | 'retryOn429' | 'url'
> {
  /** Path parameter values, unencoded; the probe percent-encodes them. */
  params?: Record<string, string>;
  /** Statuses this request must get; anything else is a finding under `statusRule`. */
  expectStatus?: number[];
  statusRule?: string;
  /** Whose rule the expected status is (default: the operation's). */
  statusSource?: Source;
  /**
   * The kind of fact the request's own shape rests on (a parameter or body field name). When it is
   * `inferred` and the target answers 4xx, that is "inferred request shape refused" (a warning) and
   * `probe.refused(ex)` tells the check to skip what depended on it.
   */
  requestSource?: Source;
  /** Malformed input on purpose: any 4xx is fine, a 2xx is a warning, a 5xx a failure. */
  malformed?: boolean;
}

/** The operation's path with parameters filled in and percent-encoded (`#` becomes `%23`). */
export function expandPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined)
      throw new Error(`No value for path parameter {${name}} of ${template}`);
    return encodeURIComponent(value);
  });
}

/** The request a call sends: the spec without the probe's own members, the path filled in. */
function requestFor(op: Operation, spec: CallSpec): RequestSpec {
  const {
    params,
    expectStatus: _e,
    statusRule: _r,
    statusSource: _s,
    requestSource: _q,
    malformed: _m,
    ...rest
  } = spec;
  return {
    ...rest,
    operationId: op.operationId,
    method: op.method.toUpperCase() as RequestSpec['method'],
    path: spec.url ? undefined : expandPath(op.path, params),
  };
}

export class Probe {
  readonly findings: Finding[] = [];
  readonly notes: ExerciseNote[] = [];
  readonly #refused = new WeakSet<TargetExchange>();

  constructor(readonly ctx: CheckContext) {}

  /** Whether the target refused this request's inferred shape (the check skips what depends on it). */
  refused(ex: TargetExchange): boolean {
    return this.#refused.has(ex);
  }

  async #send(op: Operation, request: RequestSpec): Promise<TargetExchange> {
    try {
      return await this.ctx.client.send(request);
    } catch (error) {
      if (!(error instanceof TargetError)) throw error;
      // The target cannot be asked (no answer, a body over the bounds, the budget spent): one clear finding, and the check ends.
      this.findings.push({
        operationId: op.operationId,
        method: request.method,
        url: request.url ?? `${this.ctx.client.baseUrl}${request.path ?? ''}`,
        severity: 'failure',
        rule: 'target',
        expected: "a complete answer within the suite's bounds",
        message: error.message,
      });
      throw new CheckAborted(this.result());
    }
  }

  /** Sends one request for `op` and checks the response against the document. */
  async call(op: Operation, spec: CallSpec = {}): Promise<TargetExchange> {
    const ex = await this.#send(op, requestFor(op, spec));
    this.#note(op, ex, spec);
    const clientError = ex.status >= 400 && ex.status < 500;
    const wantsSuccess = spec.expectStatus?.every((s) => s < 300) ?? false;
    const refused = spec.requestSource === 'inferred' && clientError && wantsSuccess;
    const { findings, undeclared } = inspectExchange(this.ctx, op, ex, {
      anyClientError: refused || spec.malformed,
    });
    this.findings.push(...findings);
    for (const field of undeclared) this.#drift(op, ex, field.pointer, field.sample);
    if (refused) this.#refusedShape(op, ex, spec);
    else if (spec.malformed) this.#checkMalformed(op, ex, spec);
    else this.#checkStatus(op, ex, spec);
    return ex;
  }

  /** Notes which operation, status, key and preference the request exercised (for the coverage table). */
  #note(op: Operation, ex: TargetExchange, spec: CallSpec): void {
    const note = {
      operationId: op.operationId,
      status: ex.status,
      auth: spec.auth ?? 'main',
      preferred: Boolean(spec.headers?.prefer),
    };
    this.notes.push(note);
    this.ctx.notes.push(note);
  }

  /** The target refused a request built from inferred names: a warning, and what depends on it is skipped. */
  #refusedShape(op: Operation, ex: TargetExchange, spec: CallSpec): void {
    this.#refused.add(ex);
    this.add(op, ex, {
      rule: 'inferred-request-refused',
      source: 'inferred',
      severity: 'warning',
      pointer: 'status',
      expected: `status ${spec.expectStatus!.join(' or ')} for a request built from inferred names`,
      actual: `${ex.status} ${show(ex.json ?? ex.text)}`,
      message: `inferred request shape refused: ${ex.status} ${show(ex.json ?? ex.text)}; the checks that depend on it are skipped`,
    });
  }

  /** Malformed input on purpose: a 5xx is a failure, a success a warning, any 4xx fine. */
  #checkMalformed(op: Operation, ex: TargetExchange, spec: CallSpec): void {
    const clientError = ex.status >= 400 && ex.status < 500;
    if (ex.status >= 500)
      this.add(op, ex, {
        rule: spec.statusRule ?? 'bad-input',
        source: 'documented',
        pointer: 'status',
        expected: 'a 4xx for malformed input (never a 5xx)',
        actual: `${ex.status} ${show(ex.json ?? ex.text)}`,
        message: `malformed input got a server error ${ex.status}`,
      });
    else if (!clientError)
      this.add(op, ex, {
        rule: spec.statusRule ?? 'bad-input',
        source: 'inferred',
        severity: 'warning',
        pointer: 'status',
        expected: 'a 4xx for malformed input',
        actual: `${ex.status}`,
        message: `malformed input was accepted with ${ex.status}`,
        assumption: MALFORMED_INPUT_NOT_SHOWN,
      });
  }

  /** The status is one the request expects. */
  #checkStatus(op: Operation, ex: TargetExchange, spec: CallSpec): void {
    if (!spec.expectStatus || spec.expectStatus.includes(ex.status)) return;
    // A well-formed request to an operation the document lists must succeed, however inferred its shapes.
    const source =
      spec.statusSource ?? (spec.expectStatus.every((s) => s < 300) ? 'documented' : op.source);
    this.add(op, ex, {
      rule: spec.statusRule ?? 'status',
      source,
      pointer: 'status',
      expected: `status ${spec.expectStatus.join(' or ')}`,
      actual: `${ex.status} ${show(ex.json ?? ex.text)}`,
      message: `expected status ${spec.expectStatus.join(' or ')}, got ${ex.status}`,
    });
  }

  /**
   * Like `call`, but several checks share one answer per run (first pages that inputs are derived
   * from): the request is sent, and its response inspected, only the first time.
   */
  cached(op: Operation, spec: CallSpec = {}): Promise<TargetExchange> {
    const key = `${op.operationId} ${JSON.stringify(spec)}`;
    let pending = this.ctx.memo.get(key) as Promise<TargetExchange> | undefined;
    if (!pending) {
      pending = this.call(op, spec);
      this.ctx.memo.set(key, pending);
    }
    return pending;
  }

  /** Adds a semantic finding about an exchange. Severity follows the rule's source unless given. */
  add(
    op: Operation,
    ex: TargetExchange,
    f: {
      rule: string;
      message: string;
      expected: string;
      actual?: string;
      pointer?: string;
      source?: Source;
      severity?: Severity;
      assumption?: string;
    },
  ): void {
    const source = f.source ?? 'documented';
    this.findings.push({
      ...about(op, ex),
      severity: f.severity ?? severityFor(source, this.ctx.options.strict),
      ...f,
      source,
    });
  }

  /** A finding about the operation, not tied to one response (e.g. nothing to derive a value from). */
  addOperationFinding(
    op: Operation,
    f: {
      rule: string;
      message: string;
      expected: string;
      actual?: string;
      severity: Severity;
      source?: Source;
      assumption?: string;
      notRun?: Finding['notRun'];
    },
  ): void {
    this.findings.push({
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      url: `${this.ctx.client.baseUrl}${op.path}`,
      ...f,
    });
  }

  /** Says that a check (or part of it) could not run, and why; the report lists these beside the coverage table. */
  skip(op: Operation, what: string, why: string): void {
    this.addOperationFinding(op, {
      severity: 'warning',
      rule: NOT_RUN,
      expected: `${what} checked`,
      message: `${what} not checked: ${why}`,
      notRun: { what, why },
    });
  }

  #drift(op: Operation, ex: TargetExchange, pointer: string, sample: unknown): void {
    if (this.ctx.allowlist(pointer)) return;
    const pattern = pointerPattern(pointer);
    // Once per run (the context's), not once per check: every check sees the same records.
    const key = `undeclared-field ${op.operationId} ${ex.status} ${pattern}`;
    if (this.ctx.once.has(key)) return;
    this.ctx.once.add(key);
    this.findings.push({
      ...about(op, ex),
      severity: this.ctx.options.strict ? 'failure' : 'warning',
      rule: 'undeclared-field',
      pointer,
      expected: `only fields the document declares (pattern ${pattern}; accept with CONTRACT_ALLOWLIST)`,
      actual: redactSecrets(show(sample), this.ctx.secrets),
      message: `field ${pointer} is not declared by the document`,
    });
  }

  /** Findings with every secret removed. */
  result(): Finding[] {
    return this.findings.map((f) => ({ ...redactStringValues(f, this.ctx.secrets) }));
  }
}
