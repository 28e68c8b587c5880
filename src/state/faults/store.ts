/**
 * @module state/faults/store
 * The armed faults behind one small interface: in this process (memory.ts) or shared by a fleet
 * (redis.ts), each count used up exactly once across every instance. Taking one may answer
 * synchronously, so the memory store costs the hot path no promise.
 */
import type { ArmedFault, FaultAction, FaultMatch, RequestFacts } from './faults.js';

/** An armed fault as it is kept (its count is kept beside it). */
export type KeptFault = Omit<ArmedFault, 'remaining'>;

export interface FaultsStore {
  /** False only when no fault can be armed anywhere (a hint that lets an idle request skip the lookup). */
  mayHaveArmed(): boolean;
  /** Uses up one count of the oldest armed fault that matches, exactly once across every instance. */
  take(request: RequestFacts): FaultAction | undefined | Promise<FaultAction | undefined>;
  /** Arms a fault; a StoreUnavailableError while a shared store is away. */
  arm(match: FaultMatch, count: number, action: FaultAction): Promise<ArmedFault>;
  disarm(id?: string): Promise<number>;
  armed(): Promise<ArmedFault[]>;
}
