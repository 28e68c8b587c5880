/**
 * @module proxy/report
 * What the proxy tells: one JSON line per event through an injectable `log`, the key scrubbed
 * from every line whatever put it there, and counters for `GET /__proxy/stats`. A violation line
 * has the contract suite's fields: operation, method, url, status, pointer, rule, expected,
 * actual, source.
 */
import { isBinding } from '../contract/index.js';
import type { Finding } from './check.js';

/** Where lines go: stderr by default, an array in tests. */
export type LogLine = (line: string) => void;

export const REDACTED = '***';

/** Replaces every occurrence of the secret (and of its percent-encoded form) with `***`. */
export function createRedactor(secret: string): (text: string) => string {
  const forms = [...new Set([secret, encodeURIComponent(secret)])].filter((f) => f.length > 0);
  return (text) => forms.reduce((out, form) => out.split(form).join(REDACTED), text);
}

export interface Exchange {
  operation: string | null;
  method: string;
  /** The upstream URL (the key never travels in it; redacted regardless). */
  url: string;
  status: number;
}

export interface ProxyStats {
  startedAt: string;
  requests: number;
  /** Responses checked against the document (body or headers). */
  validated: number;
  /** Broken documented and reference rules. */
  violations: number;
  /** Broken inferred rules (the document guessed; the live service may be right). */
  inferredViolations: number;
  undeclaredFields: number;
  /** Passed through unchecked: no matching operation, or a JSON body over the size cap. */
  unvalidated: number;
  upstreamErrors: number;
  recorded: number;
  byOperation: Record<string, { requests: number; violations: number; inferredViolations: number; undeclaredFields: number }>;
}

/** The log-and-count half of the proxy; one per proxy app. */
export class Reporter {
  readonly #log: LogLine;
  readonly #redact: (text: string) => string;
  readonly #stats: ProxyStats;

  constructor(options: { log: LogLine; secret: string; now: () => number }) {
    this.#log = options.log;
    this.#redact = createRedactor(options.secret);
    this.#stats = {
      startedAt: new Date(options.now()).toISOString(),
      requests: 0,
      validated: 0,
      violations: 0,
      inferredViolations: 0,
      undeclaredFields: 0,
      unvalidated: 0,
      upstreamErrors: 0,
      recorded: 0,
      byOperation: {},
    };
  }

  /** Writes one event as one JSON line, the key scrubbed. */
  emit(event: Record<string, unknown>): void {
    this.#log(this.#redact(JSON.stringify(event)));
  }

  /** Counts a request and logs its access line. */
  request(exchange: Exchange, extra: Record<string, unknown> = {}): void {
    this.#stats.requests += 1;
    if (exchange.operation) this.#perOperation(exchange.operation).requests += 1;
    this.emit({ event: 'request', ...exchange, ...extra });
  }

  /**
   * Logs each finding as one line in the contract suite's shape, counts them, and returns the
   * number of broken rules (documented and inferred; undeclared fields are not counted there).
   * Severity as in the suite: documented rules fail, inferred ones and undeclared fields warn.
   */
  findings(exchange: Exchange, findings: Finding[]): number {
    this.#stats.validated += 1;
    const perOp = exchange.operation ? this.#perOperation(exchange.operation) : undefined;
    let broken = 0;
    for (const f of findings) {
      const line = { ...exchange, pointer: f.pointer, rule: f.rule, expected: f.expected, actual: f.actual, source: f.source, message: f.message };
      if (f.kind === 'undeclared') {
        this.#stats.undeclaredFields += 1;
        if (perOp) perOp.undeclaredFields += 1;
        this.emit({ event: 'undeclared-field', severity: 'warning', ...line });
        continue;
      }
      broken += 1;
      const binding = isBinding(f.source);
      this.#stats[binding ? 'violations' : 'inferredViolations'] += 1;
      if (perOp) perOp[binding ? 'violations' : 'inferredViolations'] += 1;
      this.emit({ event: 'violation', severity: binding ? 'failure' : 'warning', ...line });
    }
    return broken;
  }

  unvalidated(exchange: Exchange, reason: string): void {
    this.#stats.unvalidated += 1;
    this.emit({ event: 'unvalidated', severity: 'warning', ...exchange, reason });
  }

  upstreamError(exchange: Exchange, error: string): void {
    this.#stats.upstreamErrors += 1;
    this.emit({ event: 'upstream-error', severity: 'failure', ...exchange, error });
  }

  recorded(exchange: Exchange, file: string): void {
    this.#stats.recorded += 1;
    this.emit({ event: 'recorded', ...exchange, file });
  }

  notRecorded(exchange: Exchange, reason: string, severity: 'info' | 'warning'): void {
    this.emit({ event: 'not-recorded', severity, ...exchange, reason });
  }

  stats(): ProxyStats {
    return structuredClone(this.#stats);
  }

  #perOperation(operationId: string) {
    return (this.#stats.byOperation[operationId] ??= { requests: 0, violations: 0, inferredViolations: 0, undeclaredFields: 0 });
  }
}
