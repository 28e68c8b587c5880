/**
 * @module support/check
 * The shapes a check works with: the context it receives, its scope, its signature, the note each
 * request leaves for the coverage table, and the error that cuts a check short. Types and one
 * error class only, so the modules that build a context (context.ts), ask the target (probe.ts)
 * and judge answers (inspect.ts) can all name them without importing each other.
 */
import type { Contract, Validators } from '../../contract/index.js';
import type { Allowlist } from './allowlist.js';
import type { Auth, Client } from './client.js';
import type { Finding } from './findings.js';
import type { ContractOptions } from './options.js';
import type { Profile } from '../../evidence/index.js';

/** One request as the coverage table sees it. */
export interface ExerciseNote {
  operationId: string;
  status: number;
  auth: Auth;
  /** Set when the status was asked for with `Prefer: code=NNN`. */
  preferred: boolean;
}

export interface CheckContext {
  client: Client;
  contract: Contract;
  validators: Validators;
  options: ContractOptions;
  allowlist: Allowlist;
  /** Every key in play, for redaction. */
  secrets: string[];
  /** Which operation and status each request exercised, in order (the coverage table reads it). */
  notes: ExerciseNote[];
  /** First pages and other reads several checks derive inputs from, fetched once. */
  memo: Map<string, Promise<unknown>>;
  /** Run-wide warnings already given (e.g. "no rate-limit headers"): said once per run, not per response. */
  once: Set<string>;
  /** What the target was seen to do since the last test took it (support/evidence.ts). */
  profile: Profile;
  /** Everything the target was seen to do this run, up to the last test (the drift check reads it). */
  observedRun: Profile;
}

/** Narrows a check to one endpoint family (the operations' first tag). */
export interface Scope {
  family?: string;
}

/** A check: a self-contained look at the target that reports what it found. */
export type Check = (ctx: CheckContext, scope?: Scope) => Promise<Finding[]>;

/** Thrown by a probe when the target cannot be asked any more; carries the findings so far. */
export class CheckAborted extends Error {
  constructor(readonly findings: Finding[]) {
    super(findings.at(-1)?.message ?? 'check aborted');
  }
}

/**
 * Thrown by a check that has nothing to look at on this target (no download in this family, no 429
 * to provoke): the test is reported as skipped with this reason, not as a pass that checked nothing.
 */
export class DoesNotApply extends Error {}

/** `items` when there are any; otherwise the check does not apply, for `reason`. */
export function applicable<T>(items: T[], reason: string): T[] {
  if (items.length === 0) throw new DoesNotApply(reason);
  return items;
}
