/**
 * @module support/context
 * Builds what every check function receives: the client, the contract and its validators (the
 * shared ones from `src/contract/`), the options and the allowlist, once per worker; and runs a
 * check to its end. The shapes themselves live in check.ts.
 */
import {
  createValidators,
  loadContract,
  type Contract,
  type Validators,
} from '../../contract/index.js';
import type { Finding } from './findings.js';
import { loadAllowlist } from './allowlist.js';
import { CheckAborted, DoesNotApply, type Check, type CheckContext, type Scope } from './check.js';
import { createClient, type ClientOptions } from './client.js';
import { secretsOf, type ContractOptions } from './options.js';
import { emptyProfile } from '../../evidence/index.js';
import { observeExchange } from './evidence.js';

// The checks name these through this module, beside createContext and runToEnd.
export {
  applicable,
  CheckAborted,
  DoesNotApply,
  type Check,
  type CheckContext,
  type Scope,
} from './check.js';

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
    observedRun: emptyProfile(),
  };
  return ctx;
}

/** How a check ended: with its findings, or not applying to this target (and why). */
export type CheckOutcome = { findings: Finding[] } | { doesNotApply: string };

/**
 * Runs a check to its end: a check the target cut short (no answer, a body over the bounds, the
 * request budget spent) ends with what it had found plus one finding naming the URL; a check with
 * nothing to look at says so.
 */
export async function outcomeOf(
  check: Check,
  ctx: CheckContext,
  scope?: Scope,
): Promise<CheckOutcome> {
  try {
    return { findings: await check(ctx, scope) };
  } catch (error) {
    if (error instanceof CheckAborted) return { findings: error.findings };
    if (error instanceof DoesNotApply) return { doesNotApply: error.message };
    throw error;
  }
}

/** A check's findings (none when it does not apply). */
export async function runToEnd(check: Check, ctx: CheckContext, scope?: Scope): Promise<Finding[]> {
  const outcome = await outcomeOf(check, ctx, scope);
  return 'findings' in outcome ? outcome.findings : [];
}
