/**
 * @module proxy/report
 * What the proxy tells: one JSON line per event through an injectable `log`, the key scrubbed
 * (in every encoding and case src/redaction.ts knows) from every string in it whatever put it
 * there, each string cut to MAX_LOGGED_CHARS, and
 * counters for `GET /__proxy/stats`. A violation line has the contract suite's fields:
 * operation, method, url, status, pointer, rule, expected, actual, source.
 */
import { isBinding, pointerPattern, type ResponseFinding } from '../contract/index.js';
import type { SecretScrubber } from '../redaction.js';

/** Longest string a log line carries (a server's 100,000-character field name in a pointer is cut). */
export const MAX_LOGGED_CHARS = 2000;

/** A string as a log line carries it: the key scrubbed, then cut to MAX_LOGGED_CHARS. */
function logged(text: string, scrubber: SecretScrubber): string {
  const scrubbed = scrubber.scrubText(text);
  if (scrubbed.length <= MAX_LOGGED_CHARS) return scrubbed;
  return `${scrubbed.slice(0, MAX_LOGGED_CHARS)}…(${scrubbed.length - MAX_LOGGED_CHARS} characters cut)`;
}

/** Finding lines logged for one answer; the rest are counted and said in one line. */
export const MAX_FINDING_LINES = 20;

/** Where lines go: stderr by default, an array in tests. */
export type LogLine = (line: string) => void;

/** One request through the proxy, as its log lines name it. */
export interface ProxiedExchange {
  operation: string | null;
  method: string;
  /** The upstream URL (the key never travels in it; redacted regardless); the request path for a request not forwarded. */
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
  /** Requests the proxy answered itself without forwarding (Host, origin, path or size refused; not under the base path). */
  refused: number;
  /** Requests that failed inside the proxy (500). */
  proxyErrors: number;
  /** Responses in which the live service echoed the key (scrubbed, or the stream cut). */
  keyEchoes: number;
  recorded: number;
  /** Recordings the file system refused to take (the answers were served all the same). */
  recordFailures: number;
  /** Answers not recorded because the recordings reached the bound replay accepts (served all the same). */
  overRecordingBound: number;
  byOperation: Record<
    string,
    { requests: number; violations: number; inferredViolations: number; undeclaredFields: number }
  >;
}

/** The log-and-count half of the proxy; one per proxy app. */
export class Reporter {
  readonly #log: LogLine;
  readonly #scrubber: SecretScrubber;
  readonly #stats: ProxyStats;
  /** Set by a failed recording write, cleared by a successful one. */
  #recordingBroken = false;

  constructor(options: { log: LogLine; scrubber: SecretScrubber; now: () => number }) {
    this.#log = options.log;
    this.#scrubber = options.scrubber;
    this.#stats = {
      startedAt: new Date(options.now()).toISOString(),
      requests: 0,
      validated: 0,
      violations: 0,
      inferredViolations: 0,
      undeclaredFields: 0,
      unvalidated: 0,
      upstreamErrors: 0,
      refused: 0,
      proxyErrors: 0,
      keyEchoes: 0,
      recorded: 0,
      recordFailures: 0,
      overRecordingBound: 0,
      byOperation: {},
    };
  }

  /** Writes one event as one JSON line, the key scrubbed and every string bounded. */
  emit(event: Record<string, unknown>): void {
    // Scrubbed value by value, before serialising: a JSON-escaped form in a value stays a valid line.
    this.#log(
      JSON.stringify(event, (_name, value: unknown) =>
        typeof value === 'string' ? logged(value, this.#scrubber) : value,
      ),
    );
  }

  /** Counts a request, whatever answered it, and logs its access line. */
  request(
    exchange: ProxiedExchange,
    extra: { forwarded: boolean } & Record<string, unknown>,
  ): void {
    this.#stats.requests += 1;
    // Answered here with an error: refused (a preflight's 204 is not a refusal; a 500 is a proxy error).
    if (!extra.forwarded && exchange.status >= 400 && exchange.status !== 500)
      this.#stats.refused += 1;
    if (exchange.operation) this.#perOperation(exchange.operation).requests += 1;
    this.emit({ event: 'request', ...exchange, ...extra });
  }

  /**
   * Counts every finding and logs them in the contract suite's shape, one line per rule and
   * pointer pattern of this answer (array indices as `*`; `occurrences` when more than one, the
   * pointer of the first), at most MAX_FINDING_LINES lines an answer, then one
   * `findings-not-logged` line: a page of 25 records with 1,000 undeclared fields each is 1,000
   * counts, not 25,000 lines. Returns the number of broken rules (documented and inferred;
   * undeclared fields are not counted there). Severity as in the suite: documented rules fail,
   * inferred ones and undeclared fields warn.
   */
  findings(exchange: ProxiedExchange, findings: ResponseFinding[]): number {
    this.#stats.validated += 1;
    const perOp = exchange.operation ? this.#perOperation(exchange.operation) : undefined;
    let broken = 0;
    const groups = new Map<string, { first: ResponseFinding; occurrences: number }>();
    for (const f of findings) {
      const group = `${f.kind}\u0000${f.rule}\u0000${pointerPattern(f.pointer)}`;
      // A finding may already stand for several places of one pattern (check-response groups them).
      const places = f.count ?? 1;
      const seen = groups.get(group);
      if (seen) seen.occurrences += places;
      else groups.set(group, { first: f, occurrences: places });
      if (f.kind === 'undeclared') {
        this.#stats.undeclaredFields += places;
        if (perOp) perOp.undeclaredFields += places;
        continue;
      }
      broken += 1;
      const binding = isBinding(f.source);
      this.#stats[binding ? 'violations' : 'inferredViolations'] += 1;
      if (perOp) perOp[binding ? 'violations' : 'inferredViolations'] += 1;
    }
    let lines = 0;
    for (const { first: f, occurrences } of groups.values()) {
      if (lines === MAX_FINDING_LINES) break;
      lines += 1;
      const line = {
        ...exchange,
        pointer: f.pointer,
        rule: f.rule,
        expected: f.expected,
        actual: f.actual,
        source: f.source,
        message: f.message,
        ...(occurrences > 1 ? { occurrences } : {}),
      };
      if (f.kind === 'undeclared')
        this.emit({ event: 'undeclared-field', severity: 'warning', ...line });
      else
        this.emit({
          event: 'violation',
          severity: isBinding(f.source) ? 'failure' : 'warning',
          ...line,
        });
    }
    if (groups.size > lines)
      this.emit({
        event: 'findings-not-logged',
        severity: 'warning',
        ...exchange,
        patterns: groups.size - lines,
        message: `${groups.size - lines} more rule and pointer pattern(s) in this answer, counted at /__proxy/stats but not logged (at most ${MAX_FINDING_LINES} lines an answer)`,
      });
    return broken;
  }

  unvalidated(exchange: ProxiedExchange, reason: string): void {
    this.#stats.unvalidated += 1;
    this.emit({ event: 'unvalidated', severity: 'warning', ...exchange, reason });
  }

  upstreamError(exchange: ProxiedExchange, error: string): void {
    this.#stats.upstreamErrors += 1;
    this.emit({ event: 'upstream-error', severity: 'failure', ...exchange, error });
  }

  /** The live service sent the key back; what was done about it is in `message`. */
  keyEchoed(exchange: ProxiedExchange, message: string): void {
    this.#stats.keyEchoes += 1;
    this.emit({ event: 'key-echoed', severity: 'failure', ...exchange, message });
  }

  proxyError(where: { method: string; path: string; error: string }): void {
    this.#stats.proxyErrors += 1;
    this.emit({ event: 'proxy-error', severity: 'failure', ...where });
  }

  recorded(exchange: ProxiedExchange, file: string): void {
    this.#stats.recorded += 1;
    this.#recordingBroken = false;
    this.emit({ event: 'recorded', ...exchange, file });
  }

  /** Counts every failed write; logs only the first of a run of failures (a full disk would flood the log). */
  recordFailed(exchange: ProxiedExchange, error: string): void {
    this.#stats.recordFailures += 1;
    if (this.#recordingBroken) return;
    this.#recordingBroken = true;
    this.emit({
      event: 'record-failed',
      severity: 'failure',
      ...exchange,
      error,
      message:
        'answer served; recordings are not being written (further failures are counted at /__proxy/stats, not logged)',
    });
  }

  /** Counts every answer past the recording bound; logs only the first (the rest would all say the same). */
  recordingFull(exchange: ProxiedExchange, reason: string): void {
    this.#stats.overRecordingBound += 1;
    if (this.#stats.overRecordingBound > 1) return;
    this.emit({
      event: 'recording-full',
      severity: 'warning',
      ...exchange,
      reason,
      message:
        'answers are still served; further answers are counted at /__proxy/stats (overRecordingBound), not logged',
    });
  }

  notRecorded(exchange: ProxiedExchange, reason: string, severity: 'info' | 'warning'): void {
    this.emit({ event: 'not-recorded', severity, ...exchange, reason });
  }

  stats(): ProxyStats {
    return structuredClone(this.#stats);
  }

  #perOperation(operationId: string) {
    return (this.#stats.byOperation[operationId] ??= {
      requests: 0,
      violations: 0,
      inferredViolations: 0,
      undeclaredFields: 0,
    });
  }
}
