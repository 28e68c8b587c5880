/**
 * @module state/faults/faults
 * Armed faults as the state keeps them (plain JSON: a match, a count left, an action), the rules
 * every store applies when one is armed (count, an action given, at most MAX_ARMED_FAULTS), and
 * whether one hits a request (the one matcher, and a forced status only where the operation
 * declares it). The seeded random policy is the server's (src/server/faults/fault-plan.ts); the
 * book of armed faults is the memory store's (memory.ts).
 */
import { randomUUID } from 'node:crypto';
import { matches, type MatchFacts, type RequestMatch } from '../stubs/match.js';

export interface FaultAction {
  /** Answer with this documented status and its documented body. */
  status?: number;
  /** Seconds a forced status announces where its response declares `Retry-After` (429). */
  retryAfterSeconds?: number;
  /** Hold the request this long before answering. */
  delayMs?: number;
  /** Drop the connection without answering. */
  reset?: boolean;
  /** Send the headers and only part of the body, then drop the connection. */
  truncate?: boolean;
  /** Send the body slowly, this many bytes per tick (one tick = SLOW_TICK_MS). */
  slowBytesPerTick?: number;
}

/** A fault (or its arming) that breaks a rule; the message names it. */
export class ActionError extends Error {}

/** Armed faults kept at once; arming more is refused rather than growing without limit. */
export const MAX_ARMED_FAULTS = 1000;
export const MAX_ARMED_COUNT = 1_000_000;

/** Which requests a fault hits: the one request pattern of the QA controls. */
export type FaultMatch = RequestMatch;

export interface ArmedFault {
  id: string;
  match: FaultMatch;
  /** Requests still to be hit. */
  remaining: number;
  action: FaultAction;
}

export interface RequestFacts extends MatchFacts {
  operationId: string;
  /** Whether the operation declares a status (a forced status must be one it declares). */
  declares(status: number): boolean;
}

/** A fault to arm, its count and action checked (the same rules for every store). */
export function newArmedFault(match: FaultMatch, count: number, action: FaultAction): ArmedFault {
  if (!Number.isInteger(count) || count < 1 || count > MAX_ARMED_COUNT)
    throw new ActionError(`count must be an integer from 1 to ${MAX_ARMED_COUNT}`);
  if (Object.keys(action).length === 0) throw new ActionError('an action is required');
  return {
    id: randomUUID(),
    match: structuredClone(match),
    remaining: count,
    action: { ...action },
  };
}

/** True when an armed fault hits this request: its match holds and its status is declared here. */
export const faultHits = (fault: Pick<ArmedFault, 'match' | 'action'>, request: RequestFacts) =>
  matches(fault.match, request) &&
  (fault.action.status === undefined || request.declares(fault.action.status));

export const tooManyArmed = () =>
  new ActionError(`at most ${MAX_ARMED_FAULTS} faults can be armed at once; clear some first`);
