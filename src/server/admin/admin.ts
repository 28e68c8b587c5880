/**
 * @module admin/admin
 * Control endpoints under `/__mock/` (off unless an admin token is configured; never part of the
 * API document): reset rate limits, advance the rate-limit clock (within MAX_CLOCK_OFFSET_SECONDS
 * in all), arm and clear faults, list the last requests (never a key's secret), read the
 * configuration. A body is read no further than MAX_ADMIN_BODY_BYTES, within the body time bound.
 * All of it reads and changes the state store, so with a shared store any instance's controls act
 * on the whole fleet.
 */
import { Hono, type Context, type Env } from 'hono';
import type { Contract, Validators } from '../../contract/index.js';
import { MAX_CLOCK_OFFSET_SECONDS, type AdjustableClock } from '../../state/clock/clock.js';
import type { ApiContext } from '../context.js';
import { apiError, badRequest, messages } from '../errors.js';
import type { KeyStore } from '../config/keys.js';
import { readBodyText } from '../pipeline/read-body.js';
import type { AppOptions } from '../options.js';
import { jsonResponse } from '../response.js';
import { ActionError } from '../faults/actions.js';
import { readArmRequest, readMatchOnly } from '../faults/arm-request.js';
import { MAX_JOURNAL_SIZE } from '../../state/journal/journal.js';
import { readJournal } from '../journal/journal-window.js';
import { findRequests, readExpectation, verifyRequests } from '../journal/verify.js';
import { readStubRequest } from '../stubs/stub-request.js';
import type { SampleAnswer } from '../stubs/sample-answer.js';
import { newStub, StubLimitError } from '../../state/stubs/stubs.js';
import type { FaultPlan } from '../faults/fault-plan.js';
import { recordRoutes, refusal } from '../records/admin-routes.js';
import type { RecordControl } from '../records/control.js';
import { StoreUnavailableError } from '../../state/shared/fail-over.js';
import type { Stores } from '../../state/stores.js';
import { STATE_HEADER } from '../pipeline/rate-limit.js';
import type { Tier } from '../../state/limits/rate-limiter.js';
import { CspReports } from '../console/csp-reports.js';
import { stubVerdict, takeDryRun } from '../console/dry-run.js';
import { mountConsolePage } from '../console/page.js';
import { consoleRoutes } from '../console/routes.js';
import { ADMIN_PREFIX } from './admin-prefix.js';
import { adminGuard } from './admin-guard.js';

/** A key's name for its name, its purpose (`fullAccess`, as /examples names them) or its secret. */
export function keyNameOf(
  state: Pick<AdminParts, 'keys' | 'keyNamesByPurpose'>,
  value: string,
): string | undefined {
  if (state.keys.records.some((k) => k.name === value)) return value;
  const byPurpose = state.keyNamesByPurpose?.get(value);
  if (byPurpose !== undefined) return byPurpose;
  return state.keys.lookup(value)?.name;
}

export { ADMIN_PREFIX } from './admin-prefix.js';
export { ADMIN_TOKEN_HEADER } from './admin-guard.js';
export const MAX_ADMIN_BODY_BYTES = 64 * 1024;
const MAX_CLOCK_ADVANCE_SECONDS = 366 * 24 * 3600;

/** The admin request's body as a JSON object (empty body: `{}`), read within the admin bounds. */
async function jsonBody(
  c: Context<Env, string>,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  // Read no further than the limit: a 300 MB body once took the mock from 131 MB to 916 MB.
  const { text } = await readBodyText(c, {
    maxBytes: MAX_ADMIN_BODY_BYTES,
    tooLarge: () =>
      apiError(
        413,
        `admin request body larger than ${MAX_ADMIN_BODY_BYTES} bytes`,
        {},
        { connection: 'close' },
      ),
    timeoutMs,
    tooSlow: () => apiError(400, messages.tooSlow(timeoutMs), {}, { connection: 'close' }),
  });
  if (text.trim() === '') return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // fall through to the 400 below
  }
  throw apiError(400, 'admin request body must be a JSON object', {
    details: [{ in: 'body', name: '', rule: 'JSON object', message: 'not a JSON object' }],
  });
}

/** A stub or fault added while the shared store is away: 503, like a record edit then. */
function unavailable(error: unknown): void {
  if (error instanceof StoreUnavailableError) throw apiError(503, error.message);
}

/** The parts of the app the control endpoints read and change (not the app itself). */
export interface AdminParts {
  options: Pick<
    AppOptions,
    'seed' | 'scale' | 'tierOverride' | 'bodyTimeoutMs' | 'instanceId' | 'origin' | 'adminHosts'
  >;
  contract: Contract;
  keys: KeyStore;
  clock: AdjustableClock;
  apis: readonly Pick<ApiContext, 'environment' | 'basePath'>[];
  validators: Validators;
  /** Each purpose's demo key name (`fullAccess` -> its name), as /examples names them. */
  keyNamesByPurpose?: ReadonlyMap<string, string>;
}

/** Where armed faults are managed: the name users say, then the first name, kept as an alias. */
export const FAULT_ROUTES = ['/faults', '/scenarios'] as const;

export function adminRoutes(options: {
  token: string;
  state: AdminParts;
  plan: FaultPlan;
  store: Stores;
  records: RecordControl;
  /** The dataset's answer to a request a match describes (a patch stub is judged on it). */
  sampleAnswer?: SampleAnswer;
  /**
   * Further state a reset clears (record edits, when the mock has them): each is awaited by
   * `POST /__mock/reset` after the stubs, faults, journal, limits and clock.
   */
  resetHooks?: readonly (() => Promise<void> | void)[];
  /** The rate-limit tiers, for the console's per-key view (`GET /__mock/limits`). */
  tiers?: ReadonlyMap<string, Tier>;
}): Hono {
  const { state, plan, store, records } = options;
  const bodyOf = (c: Context<Env, string>) => jsonBody(c, state.options.bodyTimeoutMs);
  const admin = new Hono();
  const [hostCheck, tokenCheck] = adminGuard({
    token: options.token,
    allowedHosts: [...state.options.adminHosts, new URL(state.options.origin).hostname],
  });
  // The Host check holds for every path, the console's page included (DNS rebinding); the page
  // and its files ask for the token themselves (src/server/console/), so they come before its check.
  admin.use('*', hostCheck);
  const reports = new CspReports();
  mountConsolePage(admin, ADMIN_PREFIX, reports, state.options.bodyTimeoutMs);
  admin.use('*', tokenCheck);
  admin.use('*', async (c, next) => {
    await next();
    // What was read or changed here was this instance's own state: the shared store is away.
    if (store.local) c.res.headers.set(STATE_HEADER, 'local');
  });
  const badAction = (error: unknown) => {
    unavailable(error);
    if (error instanceof ActionError)
      throw apiError(400, error.message, {
        details: [{ in: 'body', name: '', rule: 'fault action', message: error.message }],
      });
    throw error;
  };

  admin.get('/config', async (c) => {
    const { options: o, contract, keys } = state;
    return c.json({
      release: contract.release,
      seed: o.seed,
      scale: o.scale,
      environments: state.apis.map((a) => ({ environment: a.environment, basePath: a.basePath })),
      tierOverride: o.tierOverride,
      keys: keys.records.map((k) => ({
        name: k.name,
        environment: k.environment,
        tier: k.tier,
        scopes: [...k.scopes],
        expiresAt: k.expiresAt === undefined ? null : new Date(k.expiresAt).toISOString(),
        purpose: k.purpose,
      })),
      clockOffsetSeconds: (await store.clock.offsetMs()) / 1000,
      state: {
        store: store.description,
        instance: o.instanceId,
        local: store.local,
        repaired: store.repaired,
      },
      faults: {
        seed: plan.options.seed,
        random: plan.options.random ?? null,
        latency: plan.options.latency ?? null,
        armed: await store.faults.armed(),
      },
    });
  });
  admin.post('/rate-limits/reset', async (c) => {
    const { key } = await bodyOf(c);
    await store.limits.reset(typeof key === 'string' ? key : undefined);
    return c.json({ reset: typeof key === 'string' ? key : 'all' });
  });
  admin.get('/rate-limits', async (c) => c.json(await store.limits.usage()));
  admin.post('/clock/advance', async (c) => {
    const { seconds } = await bodyOf(c);
    const badSeconds = (error: string, rule: string) =>
      apiError(400, error, {
        details: [
          { in: 'body', name: '/seconds', rule, message: error, received: seconds ?? null },
        ],
      });
    if (typeof seconds !== 'number' || !(seconds >= 0) || seconds > MAX_CLOCK_ADVANCE_SECONDS)
      throw badSeconds(
        `seconds must be a number from 0 to ${MAX_CLOCK_ADVANCE_SECONDS}`,
        'number >= 0',
      );
    // Bounded in all, so every date the mock prints stays a valid date (unbounded, 300,000
    // advances of a year made /__mock/requests answer 500: "Invalid time value").
    const offsetSeconds = (await store.clock.offsetMs()) / 1000;
    if (offsetSeconds + seconds > MAX_CLOCK_OFFSET_SECONDS)
      throw badSeconds(
        `seconds: advancing by ${seconds} would put the clock ${offsetSeconds + seconds} s ahead; the bound is ${MAX_CLOCK_OFFSET_SECONDS} s (ten years) in all, ${MAX_CLOCK_OFFSET_SECONDS - offsetSeconds} s left (restart the mock to start again)`,
        `clock offset <= ${MAX_CLOCK_OFFSET_SECONDS} s`,
      );
    return c.json({ clockOffsetSeconds: (await store.clock.advance(seconds * 1000)) / 1000 });
  });
  // Armed faults: `/faults`, the word users say; `/scenarios`, its first name, still answers.
  for (const route of FAULT_ROUTES) {
    admin.get(route, async (c) => c.json({ armed: await store.faults.armed() }));
    admin.post(route, async (c) => {
      const request = readArmRequest(await bodyOf(c), {
        contract: state.contract,
        validators: state.validators,
        keyNameOf: (value) => keyNameOf(state, value),
      });
      if (Array.isArray(request)) throw badRequest(request);
      try {
        return c.json(await store.faults.arm(request.match, request.times, request.action), 201);
      } catch (error) {
        return badAction(error);
      }
    });
    admin.delete(route, async (c) => c.json({ cleared: await store.faults.disarm() }));
    admin.delete(`${route}/:id`, async (c) => {
      const cleared = await store.faults.disarm(c.req.param('id'));
      if (cleared === 0) throw apiError(404, `no armed fault ${c.req.param('id')}`);
      return c.json({ cleared });
    });
  }
  admin.post('/faults/reset', async (c) => {
    plan.reset();
    await store.faults.disarm();
    return c.json({ reset: true });
  });
  const matchOf = (value: unknown) => {
    const match = readMatchOnly(value, {
      contract: state.contract,
      validators: state.validators,
      keyNameOf: (v) => keyNameOf(state, v),
    });
    if (Array.isArray(match)) throw badRequest(match);
    return match;
  };
  // The last `limit` API requests, newest first; `operationId` and `key` (a name, purpose or key)
  // narrow them with the same match as POST /requests/find.
  admin.get('/requests', async (c) => {
    const limit = Number(c.req.query('limit') ?? 50);
    // Bounded by the largest journal, so a default `limit` works with a small `--journal-size`.
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_JOURNAL_SIZE)
      throw apiError(400, `limit must be an integer from 1 to ${MAX_JOURNAL_SIZE}`);
    const operationId = c.req.query('operationId');
    const key = c.req.query('key');
    const { lines, window } = await readJournal(store.journal);
    if (operationId === undefined && key === undefined)
      return c.json({ requests: lines.slice(0, limit), window });
    const match = matchOf({
      ...(operationId === undefined ? {} : { operationId }),
      ...(key === undefined ? {} : { key }),
    });
    return c.json({ requests: findRequests(lines, match).slice(0, limit), window });
  });
  // The journal read with the same match as faults and stubs, newest first, with its window.
  admin.post('/requests/find', async (c) => {
    const body = await bodyOf(c);
    const match = matchOf(body.match);
    const { lines, window } = await readJournal(store.journal);
    return c.json({ requests: findRequests(lines, match), window });
  });
  admin.post('/requests/verify', async (c) => {
    const body = await bodyOf(c);
    const match = matchOf(body.match);
    const expectation = readExpectation(body);
    if (typeof expectation === 'string') throw apiError(400, expectation);
    const { lines, window } = await readJournal(store.journal);
    return c.json({ ...verifyRequests(lines, match, expectation, window), match, window });
  });
  admin.post('/stubs', async (c) => {
    const { validators } = state;
    const sampleAnswer = options.sampleAnswer;
    if (!sampleAnswer) throw apiError(501, 'stubs are not available here');
    // `dryRun: true`: the judge's verdict, nothing stored (the console's live check).
    const { dryRun, rest } = takeDryRun(await bodyOf(c));
    const read = await readStubRequest(rest, {
      contract: state.contract,
      keyNameOf: (v) => keyNameOf(state, v),
      validators,
      sampleAnswer,
    });
    if (dryRun) return c.json(stubVerdict(read));
    if (Array.isArray(read)) throw badRequest(read);
    try {
      return c.json(await store.stubs.add(newStub(read)), 201);
    } catch (error) {
      if (error instanceof StubLimitError) throw apiError(409, error.message);
      unavailable(error);
      throw error;
    }
  });
  admin.get('/stubs', async (c) => c.json({ stubs: await store.stubs.list() }));
  admin.delete('/stubs', async (c) => c.json({ removed: await store.stubs.remove() }));
  admin.delete('/stubs/:id', async (c) => {
    const removed = await store.stubs.remove(c.req.param('id'));
    if (removed === 0) throw apiError(404, `no stub ${c.req.param('id').slice(0, 100)}`);
    return c.json({ removed });
  });
  // One call between tests: stubs, armed faults (and the seeded random sequence), the journal,
  // rate-limit windows, the clock offset, the record edits (DECISIONS 98 says what stays), and
  // whatever the reset hooks clear.
  admin.post('/reset', async (c) => {
    await store.stubs.remove();
    plan.reset();
    await store.faults.disarm();
    await store.journal.clear();
    await store.limits.reset();
    await store.clock.reset();
    await records.clear().catch(refusal);
    for (const hook of options.resetHooks ?? []) await hook();
    return c.json({ reset: true });
  });
  admin.delete('/requests', async (c) => {
    await store.journal.clear();
    return c.json({ cleared: true });
  });
  recordRoutes(admin, records, bodyOf);
  consoleRoutes(
    admin,
    {
      ...state,
      store,
      records,
      reports,
      tiers: options.tiers ?? new Map(),
      sampleAnswer: options.sampleAnswer,
      keyNameOf: (v) => keyNameOf(state, v),
    },
    bodyOf,
  );
  admin.notFound((c) =>
    jsonResponse(404, { error: `No such control endpoint: ${c.req.method} ${c.req.path}` }),
  );
  return admin;
}
