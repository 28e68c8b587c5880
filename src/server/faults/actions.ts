/**
 * @module faults/actions
 * What QA can make one request suffer, whichever way it was asked for (a `Prefer` header, an
 * armed fault, a seeded random fault, global latency), and the parsing of their text forms.
 */
import { decimalInteger } from '../../decimal.js';

/**
 * The longest a response may be held up by QA controls, all together: its delay (`Prefer: delay`,
 * an armed `delayMs`, random faults, global latency) plus the time its body takes to dribble out
 * (`Prefer: slow`, an armed `slowBytesPerTick`). A single delay above this is refused; a sum that
 * would exceed it is cut to it, and a dribble is sped up so the body ends within what is left.
 */
export const MAX_QA_DURATION_MS = 120_000;
/** Longest single delay that may be asked for (the whole budget). */
export const MAX_DELAY_MS = MAX_QA_DURATION_MS;
/** Largest `Retry-After` a forced 429 may announce (one day). */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

import type { FaultAction, LatencySpec, RandomFaultSpec } from '../../api/types.js';
export type { FaultAction, LatencySpec, RandomFaultSpec };

export const SLOW_TICK_MS = 50;

/** How a QA control wants a response's body to leave; the delivery step applies it. */
export interface BodyShape {
  /** Drop the connection without answering. */
  reset?: boolean;
  /** Send about half of the body, then drop the connection. */
  truncate?: boolean;
  /** Dribble the body out this many bytes per tick (SLOW_TICK_MS). */
  slowBytesPerTick?: number;
  /** Epoch ms (performance.now() scale) by which a dribbled body must have ended. */
  deadline?: number;
}

// The state layer checks faults as it stores them, with the same error.
export { ActionError } from '../../state/faults/faults.js';
import { ActionError } from '../../state/faults/faults.js';

/**
 * A whole number from `min` to `max`: a JSON number, or text of decimal digits only (`Number()`
 * alone took `0x1F4`, `5e2`, `500.0` and `+500` for 500).
 */
function integerIn(raw: unknown, min: number, max: number): number | undefined {
  const n = typeof raw === 'string' ? decimalInteger(raw.trim()) : raw;
  return Number.isInteger(n) && (n as number) >= min && (n as number) <= max
    ? (n as number)
    : undefined;
}

/** The whole numbers an integer action field takes (no `maximum`: any safe integer above `minimum`). */
export interface ActionBounds {
  minimum: number;
  maximum?: number;
}

/** An integer field's parser, its message naming the field's bounds and unit. */
function integerField(bounds: ActionBounds, takes: (where: string) => string) {
  const { minimum, maximum = Number.MAX_SAFE_INTEGER } = bounds;
  return (raw: unknown, where: string): number => {
    const n = integerIn(raw, minimum, maximum);
    if (n === undefined) throw new ActionError(`${takes(where)} (got ${JSON.stringify(raw)})`);
    return n;
  };
}

const STATUS_BOUNDS = { minimum: 100, maximum: 599 };
const DELAY_BOUNDS = { minimum: 0, maximum: MAX_DELAY_MS };
const RETRY_AFTER_BOUNDS = { minimum: 0, maximum: MAX_RETRY_AFTER_SECONDS };
const BYTES_PER_TICK_BOUNDS = { minimum: 1 };

/** An HTTP status, 100-599: the one range both `Prefer: code` and an armed `status` accept. */
export const parseStatus = integerField(
  STATUS_BOUNDS,
  (where) => `${where} must be an HTTP status from 100 to 599`,
);

/** Milliseconds of delay, 0 to MAX_DELAY_MS. */
export const parseDelay = integerField(
  DELAY_BOUNDS,
  (where) => `${where} must be an integer of milliseconds from 0 to ${MAX_DELAY_MS}`,
);

/** Bytes per tick of a slow body: a positive integer. */
export const parseBytesPerTick = integerField(
  BYTES_PER_TICK_BOUNDS,
  (where) => `${where} takes bytes per tick, a positive integer`,
);

/** Seconds a forced 429 announces, 0 to MAX_RETRY_AFTER_SECONDS. */
export const parseRetryAfter = integerField(
  RETRY_AFTER_BOUNDS,
  (where) => `${where} must be an integer of seconds from 0 to ${MAX_RETRY_AFTER_SECONDS}`,
);

/** A switch: `true` (or a bare `Prefer` token) turns it on, `false` leaves it off. */
export function parseSwitch(raw: unknown, where: string): boolean | undefined {
  if (raw === true) return true;
  if (raw === false) return undefined;
  throw new ActionError(
    `${where} is a switch: true or false in a JSON body, the bare token in Prefer (got ${JSON.stringify(raw)})`,
  );
}

/** How one action field is asked for: its `Prefer` token, what a bare token means, its parser. */
interface ActionField<T> {
  /** The `Prefer` token, e.g. `code` for `status`. */
  prefer: string;
  /** The token as the rule shows it, e.g. `code=<declared status>`. */
  preferForm: string;
  /** The value of the token written without `=value` (undefined: a value is required). */
  bare?: unknown;
  /** An integer field's bounds, as the parser holds them (the console's form reads them too). */
  bounds?: ActionBounds;
  parse(raw: unknown, where: string): T | undefined;
}

/**
 * Every field of a fault action, in one table: the `Prefer` parser, the admin API's arm request, a
 * shared store's reader of kept faults, the console's bounds and their messages all read it, so a
 * new action is a row here (its type a member of the public `FaultAction`, which the table must
 * cover) and its effect in fault-injection.ts.
 */
export const ACTION_FIELDS: { [K in keyof FaultAction]-?: ActionField<FaultAction[K]> } = {
  status: {
    prefer: 'code',
    preferForm: 'code=<declared status>',
    bounds: STATUS_BOUNDS,
    parse: parseStatus,
  },
  retryAfterSeconds: {
    prefer: 'retry-after',
    preferForm: 'retry-after=<s>',
    bounds: RETRY_AFTER_BOUNDS,
    parse: parseRetryAfter,
  },
  delayMs: { prefer: 'delay', preferForm: 'delay=<ms>', bounds: DELAY_BOUNDS, parse: parseDelay },
  reset: { prefer: 'reset', preferForm: 'reset', bare: true, parse: parseSwitch },
  truncate: { prefer: 'truncate', preferForm: 'truncate', bare: true, parse: parseSwitch },
  slowBytesPerTick: {
    prefer: 'slow',
    preferForm: 'slow=<bytes per tick>',
    bare: '1',
    bounds: BYTES_PER_TICK_BOUNDS,
    parse: parseBytesPerTick,
  },
};

/** The action fields' names, in the table's order. */
export const ACTION_FIELD_NAMES = Object.keys(ACTION_FIELDS) as (keyof FaultAction)[];

/** Sets one action field from its raw value, parsed by the field's own parser. */
export function setActionField(
  action: FaultAction,
  name: keyof FaultAction,
  raw: unknown,
  where: string,
): void {
  const value = ACTION_FIELDS[name].parse(raw, where);
  if (value !== undefined) Object.assign(action, { [name]: value });
}

/** Each integer action field's bounds, by name, read from the table (the console's form uses them). */
export const ACTION_BOUNDS: Readonly<Partial<Record<keyof FaultAction, ActionBounds>>> =
  Object.fromEntries(
    ACTION_FIELD_NAMES.flatMap((name) => {
      const { bounds } = ACTION_FIELDS[name];
      return bounds ? [[name, bounds]] : [];
    }),
  );

const BY_PREFER_TOKEN = new Map(
  ACTION_FIELD_NAMES.map((name) => [ACTION_FIELDS[name].prefer, name]),
);

/** The rule a `Prefer` header follows, as a 400 names it. */
export const PREFER_RULE = `Prefer: ${ACTION_FIELD_NAMES.map((name) => ACTION_FIELDS[name].preferForm).join(', ')}`;

/**
 * Reads a `Prefer` header (`code=429`, `retry-after=30`, `delay=500`, `reset`, `truncate`,
 * `slow=64`, several joined by commas or semicolons) into a fresh object for this request only.
 * Returns undefined when the header asks for nothing this mock knows (RFC 7240: a server ignores
 * preferences it does not know, e.g. `return=minimal`). The one parser of `Prefer`.
 */
export function parsePrefer(header: string): FaultAction | undefined {
  const action: FaultAction = {};
  let recognized = false;
  for (const token of header
    .split(/[,;]/)
    .map((t) => t.trim())
    .filter(Boolean)) {
    const [name, value] = token.split('=').map((s) => s.trim().replace(/^"|"$/g, ''));
    const field = BY_PREFER_TOKEN.get(name.toLowerCase());
    if (field === undefined) continue;
    recognized = true;
    const { prefer, bare } = ACTION_FIELDS[field];
    setActionField(action, field, value ?? bare, `Prefer: ${prefer}`);
  }
  return recognized ? action : undefined;
}

/** `ms` or `min-max`; `where` names the field in an error (`latency`, the CLI's `--latency`). */
export function parseLatency(raw: string, where = 'latency'): LatencySpec {
  const [min, max = min] = raw.split('-');
  const minMs = parseDelay(min, where);
  const maxMs = parseDelay(max, where);
  if (maxMs < minMs) throw new ActionError(`${where}: ${raw} is not a range min-max`);
  return { minMs, maxMs };
}

/** `error=0.05,delay=0.1:100-2000,reset=0.01`; `where` names the field in an error (`--faults`). */
export function parseRandomFaults(raw: string, where = 'faults'): RandomFaultSpec {
  const spec: RandomFaultSpec = {
    errorRate: 0,
    delayRate: 0,
    delay: { minMs: 0, maxMs: 0 },
    resetRate: 0,
  };
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, rest] = part.split('=');
    const [rateText, range] = (rest ?? '').split(':');
    const rate = Number(rateText);
    if (!(rate >= 0 && rate <= 1))
      throw new ActionError(`${where}: ${name} rate must be between 0 and 1 (got "${rateText}")`);
    if (name === 'error') spec.errorRate = rate;
    else if (name === 'reset') spec.resetRate = rate;
    else if (name === 'delay') {
      spec.delayRate = rate;
      spec.delay = parseLatency(range ?? '1000', `${where} delay`);
    } else throw new ActionError(`${where}: unknown kind "${name}" (error, delay, reset)`);
  }
  if (spec.errorRate + spec.delayRate + spec.resetRate > 1)
    throw new ActionError(`${where}: rates add up to more than 1`);
  return spec;
}
