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
import type { JournalFault } from '../../state/journal/store.js';
import type { FaultsStore } from '../../state/faults/store.js';
import { systemSleep, type Sleep } from '../../state/clock/clock.js';
import { forcedError } from './forced-response.js';
import { matchFactsOf } from '../stubs/request-facts.js';

/** What a `Prefer` header asks for, read once per request (by the `asked` step), with its text. */
interface Asked {
  header: string;
  action: FaultAction;
}

function preferOf(c: Context<AppEnv>): Asked | undefined {
  const header = c.req.header('prefer');
  if (!header) return undefined;
  try {
    const action = parsePrefer(header);
    return action && { header, action };
  } catch (error) {
    if (!(error instanceof ActionError)) throw error;
    throw badRequest([
      { in: 'header', name: 'prefer', rule: PREFER_RULE, message: error.message, received: header },
    ]);
  }
}

export function faultInjection(options: {
  plan: FaultPlan;
  /** Where armed faults live (this process, or shared by every instance). */
  store: Pick<FaultsStore, 'mayHaveArmed' | 'take'>;
  validators: Validators;
  maxDurationMs?: number;
  /** How a delay waits (real timers unless a test drives it). */
  sleep?: Sleep;
}) {
  const { plan, store, validators } = options;
  const sleep = options.sleep ?? systemSleep;
  const budgetMs = options.maxDurationMs ?? MAX_QA_DURATION_MS;
  /** What QA asked for (a `Prefer` header) or planned (the fault plan) for this request, carried out. */
  async function applyAction(
    c: Context<AppEnv>,
    next: Next,
    asked: Asked | undefined,
  ): Promise<void> {
    const started = performance.now();
    const op = c.get('operation');
    const declares = (status: number) => validators.responseFor(op, status) !== undefined;
    const prefer = asked?.action;
    if (prefer?.status !== undefined && !declares(prefer.status)) {
      throw badRequest([
        {
          in: 'header',
          name: 'prefer',
          rule: `declared statuses of ${op.operationId}: ${[...op.responses.keys()].join(', ')}`,
          message: `code=${prefer.status} is not a status this operation declares`,
          received: asked!.header,
        },
      ]);
    }
    let action: FaultAction | undefined = prefer;
    let by: JournalFault['by'] = 'prefer';
    if (!action) {
      const facts = { ...matchFactsOf(c), declares };
      // Armed faults from the store (counted down once across every instance sharing it), random ones from this plan.
      const armed = store.mayHaveArmed() ? await store.take(facts) : undefined;
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
      const asked = preferOf(c);
      return asked ? applyAction(c, next, asked) : next();
    } satisfies Step,
    /**
     * After the input is checked: a fault's match compares the parsed path, query and body. A
     * request whose `Prefer` governed it (the `asked` step marked it) draws nothing from the plan.
     */
    planned: function applyPlan(c: Context<AppEnv>, next: Next) {
      // The common case, answered without looking further (and without an async turn): nothing planned.
      if ((!plan.draws && !store.mayHaveArmed()) || c.get('fault')?.by === 'prefer') return next();
      return applyAction(c, next, undefined);
    } satisfies Step,
  };
}
