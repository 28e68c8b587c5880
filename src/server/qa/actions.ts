/**
 * @module qa/actions
 * What QA can make one request suffer, whichever way it was asked for (a `Prefer` header, an
 * armed fault, a seeded random fault, global latency), and the parsing of their text forms.
 */

/** Longest delay a request may be held (a client's timeout test never needs more). */
export const MAX_DELAY_MS = 120_000;

export interface FaultAction {
  /** Answer with this documented status and its documented body. */
  status?: number;
  /** Hold the request this long before answering. */
  delayMs?: number;
  /** Drop the connection without answering. */
  reset?: boolean;
  /** Send the headers and only part of the body, then drop the connection. */
  truncate?: boolean;
  /** Send the body slowly, this many bytes per tick (one tick = SLOW_TICK_MS). */
  slowBytesPerTick?: number;
}

export const SLOW_TICK_MS = 50;

export class ActionError extends Error {}

function parseDelay(raw: string, where: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > MAX_DELAY_MS) throw new ActionError(`${where}: delay must be an integer of milliseconds between 0 and ${MAX_DELAY_MS} (got "${raw}")`);
  return n;
}

/**
 * Reads a `Prefer` header (`code=429`, `delay=500`, `reset`, `truncate`, `slow=64`, several joined
 * by commas or semicolons) into a fresh object for this request only.
 */
export function parsePrefer(header: string): FaultAction {
  const action: FaultAction = {};
  for (const token of header.split(/[,;]/).map((t) => t.trim()).filter(Boolean)) {
    const [name, value] = token.split('=').map((s) => s.trim().replace(/^"|"$/g, ''));
    switch (name.toLowerCase()) {
      case 'code': {
        const status = Number(value);
        if (!Number.isInteger(status) || status < 100 || status > 599) throw new ActionError(`Prefer: code must be an HTTP status (got "${value}")`);
        action.status = status;
        break;
      }
      case 'delay':
        action.delayMs = parseDelay(value, 'Prefer');
        break;
      case 'reset':
        action.reset = true;
        break;
      case 'truncate':
        action.truncate = true;
        break;
      case 'slow': {
        const n = Number(value ?? 1);
        if (!Number.isInteger(n) || n < 1) throw new ActionError(`Prefer: slow takes bytes per tick, a positive integer (got "${value}")`);
        action.slowBytesPerTick = n;
        break;
      }
      default:
        // RFC 7240: a server ignores preferences it does not know (e.g. `return=minimal`).
        break;
    }
  }
  return action;
}

/** `50` or `50-200` (uniform) milliseconds. */
export interface LatencySpec {
  minMs: number;
  maxMs: number;
}

export function parseLatency(raw: string): LatencySpec {
  const [min, max = min] = raw.split('-');
  const minMs = parseDelay(min, 'latency');
  const maxMs = parseDelay(max, 'latency');
  if (maxMs < minMs) throw new ActionError(`latency: ${raw} is not a range min-max`);
  return { minMs, maxMs };
}

/** Rates of seeded random faults, e.g. `error=0.05,delay=0.1:100-2000,reset=0.01`. */
export interface RandomFaultSpec {
  errorRate: number;
  delayRate: number;
  delay: LatencySpec;
  resetRate: number;
}

export function parseRandomFaults(raw: string): RandomFaultSpec {
  const spec: RandomFaultSpec = { errorRate: 0, delayRate: 0, delay: { minMs: 0, maxMs: 0 }, resetRate: 0 };
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, rest] = part.split('=');
    const [rateText, range] = (rest ?? '').split(':');
    const rate = Number(rateText);
    if (!(rate >= 0 && rate <= 1)) throw new ActionError(`faults: ${name} rate must be between 0 and 1 (got "${rateText}")`);
    if (name === 'error') spec.errorRate = rate;
    else if (name === 'reset') spec.resetRate = rate;
    else if (name === 'delay') {
      spec.delayRate = rate;
      spec.delay = parseLatency(range ?? '1000');
    } else throw new ActionError(`faults: unknown kind "${name}" (error, delay, reset)`);
  }
  if (spec.errorRate + spec.delayRate + spec.resetRate > 1) throw new ActionError('faults: rates add up to more than 1');
  return spec;
}
