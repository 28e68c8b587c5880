/**
 * @module proxy/judge
 * The second step of a live answer: judge it against the document and report what was found.
 * A body the checker could not read (over the cap, nested beyond the stack) and a request no
 * operation matches are passed on unvalidated, and said so; the verdict never changes the answer.
 */
import type { Operation, ResponseBody, ResponseFinding, Validators } from '../contract/index.js';
import { checkLiveResponse } from './check.js';
import type { ProxiedExchange, Reporter } from './report.js';

export interface Verdict {
  /** The body as the checker saw it (`too-large` when it could not be checked). */
  body: ResponseBody;
  findings: ResponseFinding[];
  /** Broken rules (documented and inferred), for `x-contract-violations`. */
  broken: number;
}

export interface JudgeOptions {
  validators: Validators;
  reporter: Reporter;
  /** The release checked against, named when no operation matches. */
  release: string;
  maxJsonBytes: number;
}

export function createJudge(options: JudgeOptions) {
  const { validators, reporter } = options;
  return function judge(
    exchange: ProxiedExchange,
    live: {
      operation: Operation | undefined;
      /** The request path below the base path, for the "no operation" note. */
      below: string;
      method: string;
      status: number;
      headers: Headers;
      body: ResponseBody;
    },
  ): Verdict {
    let body = live.body;
    if (body.kind === 'too-large')
      reporter.unvalidated(
        exchange,
        `JSON body over ${options.maxJsonBytes} bytes; passed through unvalidated`,
      );
    if (!live.operation) {
      reporter.unvalidated(
        exchange,
        `no operation in the document (release ${options.release}) matches ${live.method} ${live.below}`,
      );
      return { body, findings: [], broken: 0 };
    }
    try {
      const findings = checkLiveResponse(validators, live.operation, { ...live, body });
      return { body, findings, broken: reporter.findings(exchange, findings) };
    } catch (error) {
      // A body that defeats the checker (e.g. nested beyond the stack) is still the live answer: pass it on, say so.
      if (!(error instanceof RangeError)) throw error;
      body = { kind: 'too-large' };
      reporter.unvalidated(exchange, `body could not be checked: ${error.message}`);
      return { body, findings: [], broken: 0 };
    }
  };
}
