/**
 * @module support/context
 * What every check function receives: the client, the contract and its validators (the shared ones
 * from `src/contract/`), the options and the allowlist. Built once per worker.
 */
import {
  createValidators,
  loadContract,
  type Contract,
  type Validators,
} from '../../src/contract/index.js';
import type { Finding } from './findings.js';
import { loadAllowlist, type Allowlist } from './allowlist.js';
import { createClient, type Client, type ClientOptions } from './client.js';
import { secretsOf, type ContractOptions } from './options.js';
import type { ExerciseNote } from './probe.js';
import { emptyProfile, type Profile } from '../../src/evidence/profile.js';
import { observeExchange } from './evidence.js';

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
}

/** Narrows a check to one endpoint family (the operations' first tag). */
export interface Scope {
  family?: string;
}

/** A check: a self-contained look at the target that reports what it found. */
export type Check = (ctx: CheckContext, scope?: Scope) => Promise<Finding[]>;

/** Compiling every schema takes a while; one set of validators per contract serves every context. */
const validatorsByContract = new WeakMap<Contract, Validators>();

function validatorsFor(contract: Contract): Validators {
  let validators = validatorsByContract.get(contract);
  if (!validators) validatorsByContract.set(contract, (validators = createValidators(contract)));
  return validators;
}

/** Builds a context for a target whose base URL is known. */
export async function createContext(
  options: ContractOptions & { baseUrl: string },
  overrides: Partial<Pick<ClientOptions, 'fetch' | 'sleep'>> & { contract?: Contract } = {},
): Promise<CheckContext> {
  const { contract = await loadContract({ release: options.release }), ...clientOverrides } =
    overrides;
  const secrets = secretsOf(options);
  const client = createClient({
    baseUrl: options.baseUrl,
    keys: {
      main: options.apiKey,
      restricted: options.restrictedApiKey,
      'rate-limit': options.rateLimitApiKey,
    },
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    maxRequests: options.maxRequests,
    maxRetryWaitMs: options.maxRetryWaitMs,
    maxBodyBytes: options.maxBodyBytes,
    maxJsonDepth: options.maxJsonDepth,
    onExchange: (exchange) =>
      observeExchange(ctx.profile, contract, exchange, secrets, options.baseUrl),
    ...clientOverrides,
  });
  const ctx: CheckContext = {
    client,
    contract,
    validators: validatorsFor(contract),
    options,
    allowlist: loadAllowlist(options.allowlistPath),
    secrets,
    notes: [],
    memo: new Map(),
    once: new Set(),
    profile: emptyProfile(),
  };
  return ctx;
}

/**
 * Runs a check to its end: a check the target cut short (no answer, a body over the bounds, the
 * request budget spent) ends with what it had found plus one finding naming the URL.
 */
export async function runToEnd(check: Check, ctx: CheckContext, scope?: Scope): Promise<Finding[]> {
  try {
    return await check(ctx, scope);
  } catch (error) {
    if (error instanceof CheckAborted) return error.findings;
    throw error;
  }
}

/** Thrown by a probe when the target cannot be asked any more; carries the findings so far. */
export class CheckAborted extends Error {
  constructor(readonly findings: Finding[]) {
    super(findings.at(-1)?.message ?? 'check aborted');
  }
}
