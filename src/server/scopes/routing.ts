/**
 * @module scopes/routing
 * Where the root app hands a request to a scope, first thing after the health probe (mount.ts): a
 * request whose `x-api-key` has a scope key's form goes to that scope's app whole (its request
 * log, journal, limits, faults, stubs, records, clock), or gets a 401 when the scope has ended;
 * `/__mock/scopes` makes, lists and ends scopes, and `/__mock/scopes/{id}/...` is the scope
 * app's own `/__mock/...`. Every other request goes on to the root's routes as before. Scope apps
 * are built on first sight of a scope (so a fleet's other instances build theirs lazily) and
 * dropped when it ends.
 */
import { Hono, type Context, type MiddlewareHandler, type Next } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { KeyPurpose, LiveScope } from '../../api/types.js';
import { ADMIN_PREFIX } from '../admin/admin-prefix.js';
import { adminGuard } from '../admin/admin-guard.js';
import { jsonBody } from '../admin/control-body.js';
import type { AppEnv } from '../env.js';
import { apiError } from '../errors.js';
import type { MockParts } from '../mock-state.js';
import { API_KEY_HEADER } from '../pipeline/auth.js';
import { jsonResponse } from '../response.js';
import { buildScopeApp, demoKeyOf, type ScopeApp } from './build.js';
import { ScopeLimitError, SCOPE_LIMIT_STATUS } from './limits.js';
import type { ScopeEntry, ScopeListed, ScopeRegistry } from './registry.js';
import {
  looksLikeScopeKey,
  mintScopeKey,
  SCOPE_ID_PATTERN,
  scopeKeyDigest,
  scopeKeyName,
} from './scope-key.js';

export const SCOPES_PATH = `${ADMIN_PREFIX}/scopes`;
const MAX_PURPOSE_CHARS = 100;

/** How a scope's stores are made (memory by default; the Redis registry passes its own). */
export type ScopeStoresFor = Parameters<typeof buildScopeApp>[2];

/** The scopes of one mock: its registry and the apps built for the scopes this instance has seen. */
export class Scopes {
  readonly #apps = new Map<string, Promise<ScopeApp>>();

  constructor(
    readonly parent: MockParts,
    readonly registry: ScopeRegistry,
    private readonly storesFor?: ScopeStoresFor,
  ) {
    registry.onEnd((id) => this.#drop(id));
  }

  /** The scope's app, built on first use. */
  appOf(entry: ScopeEntry): Promise<ScopeApp> {
    let app = this.#apps.get(entry.id);
    // Most recently used last: on a fleet, the app of a scope another instance ended is never
    // told of here, and goes first when the apps outnumber the scopes there may be (its state is
    // in Redis: a live scope's app dropped so is built again on its next request).
    if (app) this.#apps.delete(entry.id);
    else {
      // In memory the app is the scope's state: never dropped but when the scope ends.
      if (this.storesFor && this.#apps.size >= this.registry.max)
        void this.#drop(this.#apps.keys().next().value!);
      app = buildScopeApp(this.parent, entry, this.storesFor);
      app.catch(() => this.#apps.delete(entry.id));
    }
    this.#apps.set(entry.id, app);
    return app;
  }

  async #drop(id: string): Promise<void> {
    const app = this.#apps.get(id);
    this.#apps.delete(id);
    await (await app?.catch(() => undefined))?.close();
  }

  /** Frees every scope app this instance built (the mock is closing; the registry stays as it is). */
  async close(): Promise<void> {
    const ids = [...this.#apps.keys()];
    await Promise.all(ids.map((id) => this.#drop(id)));
  }
}

/** The root's step before its request log: scoped requests and the scope controls leave here. */
export function scopeRouting(scopes: Scopes): MiddlewareHandler<AppEnv> {
  const controls = scopeControls(scopes);
  return async function routeScoped(c: Context<AppEnv>, next: Next) {
    const secret = c.req.header(API_KEY_HEADER);
    if (looksLikeScopeKey(secret)) {
      const entry = await reached(scopes.registry.byKey(secret));
      if (!entry) throw apiError(401, endedMessage(scopes.registry.ttlSeconds));
      return (await scopes.appOf(entry)).app.fetch(c.req.raw, c.env);
    }
    const path = c.req.path;
    if (path === SCOPES_PATH || path.startsWith(`${SCOPES_PATH}/`))
      return controls.fetch(c.req.raw, c.env);
    return next();
  };
}

/**
 * A registry call's answer; a failure of the store under it (a fleet's Redis away) is a 503
 * saying so, never a 500: which scopes exist is the shared store's to say, and no instance guesses.
 */
async function reached<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof HTTPException || error instanceof ScopeLimitError) throw error;
    throw apiError(
      503,
      `the scopes cannot be read: the shared state store is unreachable (${(error as Error).message.slice(0, 200)}); try again when it is back`,
    );
  }
}

const endedMessage = (ttlSeconds: number) =>
  `Invalid API key: no scope has this key (it was closed, or went unused for longer than its TTL of ${ttlSeconds} s); make a new one with qa.scope() (POST /__mock/scopes)`;

/**
 * `POST` and `GET /__mock/scopes`, `DELETE /__mock/scopes/{id}`, and `/__mock/scopes/{id}/*` to
 * the scope's app.
 */
function scopeControls(scopes: Scopes): Hono {
  const { options } = scopes.parent.state;
  const controls = new Hono();
  const token = options.adminToken;
  if (token === undefined) throw new Error('scopes need the admin token');
  controls.use(
    '*',
    ...adminGuard({
      token,
      allowedHosts: [...options.adminHosts, new URL(options.origin).hostname],
      attempts: scopes.parent.adminAttempts,
    }),
  );
  controls.post(SCOPES_PATH, async (c) => {
    const body = await jsonBody(c, options.bodyTimeoutMs);
    const purpose = purposeOf(scopes.parent, body);
    const made = mintScopeKey();
    const entry: ScopeEntry = { id: made.id, purpose, digest: scopeKeyDigest(made.secret) };
    try {
      await reached(scopes.registry.add(entry));
    } catch (error) {
      if (error instanceof ScopeLimitError) throw apiError(SCOPE_LIMIT_STATUS, error.message);
      throw error;
    }
    const key = demoKeyOf(scopes.parent, purpose)!;
    return c.json(
      {
        id: made.id,
        apiKey: made.secret,
        keyName: scopeKeyName(made.id),
        purpose,
        tier: key.tier,
        ttlSeconds: scopes.registry.ttlSeconds,
      },
      201,
    );
  });
  controls.get(SCOPES_PATH, async (c) => {
    const listed = await reached(scopes.registry.list());
    return c.json({
      scopes: listed.flatMap((scope) => listing(scopes, scope, options.clock.now())),
      max: scopes.registry.max,
      ttlSeconds: scopes.registry.ttlSeconds,
    });
  });
  controls.delete(`${SCOPES_PATH}/:id`, async (c) => {
    const id = idOf(c.req.param('id'));
    if (!(await reached(scopes.registry.remove(id)))) throw unknownScope(id);
    return c.json({ closed: id });
  });
  controls.all(`${SCOPES_PATH}/:id/*`, async (c) => {
    const id = idOf(c.req.param('id'));
    const entry = await reached(scopes.registry.byId(id));
    if (!entry) throw unknownScope(id);
    const { app } = await scopes.appOf(entry);
    return app.fetch(scopedControlRequest(c, id), c.env);
  });
  controls.notFound((c) =>
    jsonResponse(404, { error: `No such control endpoint: ${c.req.method} ${c.req.path}` }),
  );
  return controls;
}

/**
 * A live scope as `GET /__mock/scopes` shows it (never its key): a purpose that names no demo key
 * (read back from a shared Redis, so input) leaves it out.
 */
function listing(scopes: Scopes, scope: ScopeListed, now: number): LiveScope[] {
  const key = demoKeyOf(scopes.parent, scope.purpose as KeyPurpose);
  if (!key) return [];
  const idleSeconds = Math.max(0, Math.floor((now - scope.usedAt) / 1000));
  return [
    {
      id: scope.id,
      keyName: scopeKeyName(scope.id),
      purpose: scope.purpose as KeyPurpose,
      tier: key.tier,
      idleSeconds,
    },
  ];
}

/** The id in a scope's path: the form the mock makes, else a 404 (never echoed unbounded). */
function idOf(raw: string): string {
  if (!SCOPE_ID_PATTERN.test(raw)) throw unknownScope(raw.slice(0, 40));
  return raw;
}

const unknownScope = (id: string) =>
  apiError(
    404,
    `no scope ${JSON.stringify(id)}: it was closed, went unused for longer than its TTL, or never was (POST ${SCOPES_PATH} makes one)`,
  );

/** The body's `purpose`: a purpose the mock has a demo key for (default `fullAccess`). */
function purposeOf(parent: MockParts, body: Record<string, unknown>): KeyPurpose {
  const unknown = Object.keys(body).filter((name) => name !== 'purpose');
  if (unknown.length > 0)
    throw apiError(
      400,
      `unknown member ${JSON.stringify(unknown[0].slice(0, 60))}: a scope's body has only "purpose"`,
    );
  const purpose = body.purpose ?? 'fullAccess';
  const known = [...(parent.state.keyNamesByPurpose?.keys() ?? [])];
  if (
    typeof purpose !== 'string' ||
    purpose.length > MAX_PURPOSE_CHARS ||
    !known.includes(purpose) ||
    !demoKeyOf(parent, purpose as KeyPurpose)
  )
    throw apiError(
      400,
      `purpose must be one the mock has a demo key for: ${known.join(', ')} (got ${JSON.stringify(purpose)?.slice(0, MAX_PURPOSE_CHARS) ?? typeof purpose})`,
    );
  return purpose as KeyPurpose;
}

/** `/__mock/scopes/{id}/stubs?x` as the scope app's `/__mock/stubs?x`, body and all. */
function scopedControlRequest(c: Context, id: string): Request {
  const raw = c.req.raw;
  const url = new URL(raw.url);
  url.pathname = `${ADMIN_PREFIX}${url.pathname.slice(`${SCOPES_PATH}/${id}`.length)}`;
  // On a socket the body is read from the connection itself (read-body.ts): leave the web body be.
  const onSocket = (c.env as { incoming?: unknown } | undefined)?.incoming !== undefined;
  const hasBody = !onSocket && raw.method !== 'GET' && raw.method !== 'HEAD';
  return new Request(url, {
    method: raw.method,
    headers: raw.headers,
    body: hasBody ? raw.body : undefined,
    signal: raw.signal,
    ...(hasBody ? { duplex: 'half' } : {}),
  });
}
