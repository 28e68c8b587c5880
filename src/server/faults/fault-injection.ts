/**
 * @module faults/fault-injection
 * The fault steps of the request line, after auth and rate limit (a request without a valid key
 * gets its 401/403 first, whatever it asks for): apply what QA asked for this request. A `Prefer`
 * header that asks for anything this mock knows governs the request alone (`asked`, before the
 * input is checked) and leaves the fault plan untouched (no armed fault used up, no random draw);
 * otherwise, once the input is read and checked (`planned`: a fault's match compares the parsed
 * path, query and body), an armed fault from the state store (shared by every instance on one
 * store), else the fault plan's seeded random faults, with its global latency on top. Delays
 * really wait here; a dropped connection and a cut or slowed body are carried out by the delivery
 * step. Everything together stays within MAX_QA_DURATION_MS. */
import type { Context, Next } from 'hono';
import type { Step } from '../pipeline/chain.js';
import type { Validators } from '../../contract/index.js';
import type { AppEnv } from '../env.js';
import { badRequest } from '../errors.js';
import {
  ActionError,
  MAX_QA_DURATION_MS,
  parsePrefer,
  PREFER_RULE,
  type FaultAction,
} from './actions.js';
import type { FaultPlan } from './fault-plan.js';
import type { RequestFacts } from '../../state/faults.js';
import type { JournalFault, StateStore } from '../../state/store.js';
import { systemSleep, type Sleep } from '../../state/clock.js';
import { forcedError } from './forced-response.js';
import { matchFactsOf } from '../stubs/request-facts.js';

function preferOf(c: Context<AppEnv>): FaultAction | undefined {
  const header = c.req.header('prefer');
  if (!header) return undefined;
  try {
    return parsePrefer(header);
  } catch (error) {
    if (!(error instanceof ActionError)) throw error;
    throw badRequest([
      { in: 'header', name: 'prefer', rule: PREFER_RULE, message: error.message, received: header },
    ]);
  }
}

export function faultInjection(options: {
  plan: FaultPlan;
  /** Where armed faults live (this process, or shared by every instance); defaults to the plan. */
  store?: Pick<StateStore, 'mayHaveArmed' | 'takeFault'>;
  validators: Validators;
  maxDurationMs?: number;
  /** How a delay waits (real timers unless a test drives it). */
  sleep?: Sleep;
}) {
  const { plan, validators } = options;
  const sleep = options.sleep ?? systemSleep;
  const store = options.store ?? {
    mayHaveArmed: () => plan.armedCount > 0,
    takeFault: (request: RequestFacts) => plan.takeArmed(request),
  };
  const budgetMs = options.maxDurationMs ?? MAX_QA_DURATION_MS;
  /** What QA asked for (a `Prefer` header) or planned (the fault plan) for this request, carried out. */
  async function applyAction(
    c: Context<AppEnv>,
    next: Next,
    prefer: FaultAction | undefined,
  ): Promise<void> {
    const started = performance.now();
    const op = c.get('operation');
    const declares = (status: number) => validators.responseFor(op, status) !== undefined;
    if (prefer?.status !== undefined && !declares(prefer.status)) {
      throw badRequest([
        {
          in: 'header',
          name: 'prefer',
          rule: `declared statuses of ${op.operationId}: ${[...op.responses.keys()].join(', ')}`,
          message: `code=${prefer.status} is not a status this operation declares`,
          received: c.req.header('prefer'),
        },
      ]);
    }
    let action: FaultAction | undefined = prefer;
    let by: JournalFault['by'] = 'prefer';
    if (!action) {
      const facts = { ...matchFactsOf(c), declares };
      // Armed faults from the store (counted down once across every instance sharing it), random ones from this plan.
      const armed = store.mayHaveArmed() ? await store.takeFault(facts) : undefined;
      action = plan.decide(facts, armed);
      by = armed ? 'armed' : 'plan';
    }
    if (!action) return next();
    c.set('fault', { by, action });
    if (action.delayMs) await sleep(Math.min(action.delayMs, budgetMs));
    if (action.reset) {
      // The delivery step drops the connection instead of answering; the answer it drops is the normal one.
      c.set('bodyShape', { reset: true });
      return next();
    }
    if (action.status !== undefined && action.status >= 300)
      throw forcedError(op, action.status, action.retryAfterSeconds);
    if (action.truncate || action.slowBytesPerTick)
      c.set('bodyShape', {
        truncate: action.truncate,
        slowBytesPerTick: action.slowBytesPerTick,
        deadline: started + budgetMs,
      });
    await next();
  }

  return {
    /** Before the input is checked: a `Prefer` header governs the request alone, whatever its input. */
    asked: function applyPrefer(c: Context<AppEnv>, next: Next) {
      const prefer = preferOf(c);
      return prefer ? applyAction(c, next, prefer) : next();
    } satisfies Step,
    /** After the input is checked: a fault's match compares the parsed path, query and body. */
    planned: function applyPlan(c: Context<AppEnv>, next: Next) {
      // The common case, answered without looking further (and without an async turn): nothing planned.
      if ((!plan.draws && !store.mayHaveArmed()) || preferOf(c)) return next();
      return applyAction(c, next, undefined);
    } satisfies Step,
  };
}
