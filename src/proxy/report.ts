/**
 * @module proxy/report
 * What the proxy tells: one JSON line per event through an injectable `log`, the key scrubbed
 * from every line whatever put it there, and counters for `GET /__proxy/stats`. A violation line
 * has the contract suite's fields: operation, method, url, status, pointer, rule, expected,
 * actual, source.
 */
import type { Source, Violation } from '../contract/index.js';
import type { UndeclaredField } from './undeclared.js';

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

export type Finding =
  | { kind: 'violation'; violation: Violation }
  | { kind: 'undeclared'; field: UndeclaredField; source: Source };

export interface ProxyStats {
  startedAt: string;
  requests: number;
  /** Responses checked against the document (body or headers). */
  validated: number;
  /** Broken documented rules. */
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

  /** Logs each finding as one line, counts them; returns the number of rule violations. */
  findings(exchange: Exchange, findings: Finding[]): number {
    this.#stats.validated += 1;
    let broken = 0;
    for (const finding of findings) {
      const perOp = exchange.operation ? this.#perOperation(exchange.operation) : undefined;
      if (finding.kind === 'undeclared') {
        this.#stats.undeclaredFields += 1;
        if (perOp) perOp.undeclaredFields += 1;
        this.emit({ event: 'undeclared-field', level: 'warning', ...exchange, pointer: finding.field.pointer, rule: 'declared properties', expected: 'only fields the document declares', actual: finding.field.sample, source: finding.source });
        continue;
      }
      const v = finding.violation;
      broken += 1;
      const documented = v.source === 'documented';
      if (documented) this.#stats.violations += 1;
      else this.#stats.inferredViolations += 1;
      if (perOp) perOp[documented ? 'violations' : 'inferredViolations'] += 1;
      this.emit({ event: 'violation', level: documented ? 'error' : 'warning', ...exchange, pointer: v.pointer, rule: v.rule, expected: v.message, actual: v.actual, source: v.source });
    }
    return broken;
  }

  unvalidated(exchange: Exchange, reason: string): void {
    this.#stats.unvalidated += 1;
    this.emit({ event: 'unvalidated', level: 'warning', ...exchange, reason });
  }

  upstreamError(exchange: Exchange, error: string): void {
    this.#stats.upstreamErrors += 1;
    this.emit({ event: 'upstream-error', level: 'error', ...exchange, error });
  }

  recorded(exchange: Exchange, file: string): void {
    this.#stats.recorded += 1;
    this.emit({ event: 'recorded', ...exchange, file });
  }

  notRecorded(exchange: Exchange, reason: string, level: 'info' | 'warning'): void {
    this.emit({ event: 'not-recorded', level, ...exchange, reason });
  }

  stats(): ProxyStats {
    return structuredClone(this.#stats);
  }

  #perOperation(operationId: string) {
    return (this.#stats.byOperation[operationId] ??= { requests: 0, violations: 0, inferredViolations: 0, undeclaredFields: 0 });
  }
}
