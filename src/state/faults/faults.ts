/**
 * @module state/faults/faults
 * Armed faults as the state keeps them (plain JSON: a match, a count left, an action), the rules
 * every store applies when one is armed (count, an action given, at most MAX_ARMED_FAULTS), and
 * whether one hits a request (the one matcher, and a forced status only where the operation
 * declares it). The seeded random policy is the server's (src/server/faults/fault-plan.ts); the
 * book of armed faults is the memory store's (memory.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ArmedFault, FaultAction, FaultMatch } from '../../api/types.js';
import { matches, type MatchFacts } from '../stubs/match.js';

// The public types of what the state keeps, defined in api/types.ts (the leaf every layer reads).
export type { ArmedFault, FaultAction, FaultMatch };

/** A fault (or its arming) that breaks a rule; the message names it. */
export class ActionError extends Error {}

/** Armed faults kept at once; arming more is refused rather than growing without limit. */
export const MAX_ARMED_FAULTS = 1000;
export const MAX_ARMED_COUNT = 1_000_000;

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
