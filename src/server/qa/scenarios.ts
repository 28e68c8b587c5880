/**
 * @module qa/scenarios
 * The scenario step of the request line (after routing, before auth): applies what QA asked for
 * this request (`Prefer` header, parsed into a fresh object per request and never stored), else
 * what the fault plan decides (armed or seeded faults, global latency). Delays really wait;
 * resets really drop the socket; truncated and slow bodies really arrive that way.
 */
import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Validators } from '../../contract/index.js';
import type { AppEnv } from '../env.js';
import { badRequest } from '../errors.js';
import type { KeyStore } from '../keys.js';
import { API_KEY_HEADER } from '../middleware/auth.js';
import { ActionError, parsePrefer, SLOW_TICK_MS, type FaultAction } from './actions.js';
import type { FaultPlan } from './fault-plan.js';
import { forcedError } from './forced-response.js';

const PREFER_RULE = 'Prefer: code=<declared status>, delay=<ms>, reset, truncate, slow=<bytes per tick>, retry-after=<s>';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function preferOf(c: Context<AppEnv>): (FaultAction & { retryAfterSeconds?: number }) | undefined {
  const header = c.req.header('prefer');
  if (!header) return undefined;
  try {
    const action = parsePrefer(header);
    const retryAfter = /retry-after\s*=\s*(\d+)/i.exec(header);
    return retryAfter ? { ...action, retryAfterSeconds: Number(retryAfter[1]) } : action;
  } catch (error) {
    throw badRequest([{ in: 'header', name: 'prefer', rule: PREFER_RULE, message: (error as ActionError).message, received: header }]);
  }
}

/** Drops the connection without a response (over HTTP); in-process callers get a network error. */
function dropConnection(c: Context<AppEnv>): Response {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (incoming) {
    incoming.socket.destroy();
    return new Response(null, { status: 204 });
  }
  return Response.error();
}

/** The same response with its body cut short (then the connection dropped) or dribbled out slowly. */
async function reshapeBody(res: Response, action: FaultAction): Promise<Response> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  let sent = 0;
  const chunk = action.truncate ? Math.floor(bytes.length / 2) : (action.slowBytesPerTick ?? bytes.length);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (action.truncate && sent >= chunk) {
        // Let the headers and the first half reach the client before the connection drops.
        await sleep(SLOW_TICK_MS);
        controller.error(new Error('body truncated by a QA scenario'));
        return;
      }
      if (sent > 0 && action.slowBytesPerTick) await sleep(SLOW_TICK_MS);
      const end = Math.min(sent + Math.max(chunk, 1), bytes.length);
      controller.enqueue(bytes.subarray(sent, end));
      sent = end;
      if (sent >= bytes.length && !action.truncate) controller.close();
    },
  });
  return new Response(body, { status: res.status, headers: res.headers });
}

export function scenarios(options: { plan: FaultPlan; keys: KeyStore; validators: Validators }) {
  const { plan, keys, validators } = options;
  return createMiddleware<AppEnv>(async function applyScenario(c, next) {
    const op = c.get('operation');
    const prefer = preferOf(c);
    const declares = (status: number) => validators.responseFor(op, status) !== undefined;
    if (prefer?.status !== undefined && !declares(prefer.status)) {
      throw badRequest([{ in: 'header', name: 'prefer', rule: `declared statuses of ${op.operationId}: ${[...op.responses.keys()].join(', ')}`, message: `code=${prefer.status} is not a status this operation declares`, received: c.req.header('prefer') }]);
    }
    const secret = c.req.header(API_KEY_HEADER);
    // The key's name is only read when a fault armed for one key is pending: hashing a key costs
    // microseconds, and auth hashes it again right after.
    const planned = plan.decide({
      operationId: op.operationId,
      get keyName() {
        return secret ? keys.lookup(secret)?.name : undefined;
      },
      declares,
    });
    const action = prefer && Object.keys(prefer).length > 0 ? prefer : planned;
    if (!action) return next();
    if (action.delayMs) await sleep(action.delayMs);
    if (action.reset) return dropConnection(c);
    if (action.status !== undefined && action.status >= 300) throw forcedError(op, action.status, prefer?.retryAfterSeconds);
    await next();
    if (action.truncate || action.slowBytesPerTick) c.res = await reshapeBody(c.res, action);
  });
}
