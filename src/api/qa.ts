/**
 * @module api/qa
 * The QA controls from code: a typed client of the mock's `/__mock/*` control endpoints (arm a
 * fault, reset rate limits, advance the clock, read the request journal), so a test does not
 * hand-build admin requests. It speaks HTTP (or calls an in-process app's `fetch`), so the same
 * client drives a mock started here, one in a container, or one on another machine. Its types
 * (`QaControls`, `Match`, `FaultToArm`, ...) are defined in api/types.ts.
 */
import { refuseUnknownOptions } from './option-names.js';
import { ADMIN_PREFIX, ADMIN_TOKEN_HEADER } from '../server/admin/admin.js';
import type {
  ArmedFault,
  JournalRecord,
  JournalRecords,
  LiveScope,
  QaControls,
  QaControlsOptions,
  QaScope,
  RecordControls,
  RecordEditEntry,
  ScopeOptions,
  Stub,
} from './types.js';

/** A control request that did not succeed: the mock's status and its message. */
export class QaControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'QaControlError';
  }
}

/** A verification that failed: the message shows the expected pattern and the near misses. */
export class VerificationError extends Error {
  constructor(
    message: string,
    /** How many requests matched. */
    readonly count: number,
  ) {
    super(message);
    this.name = 'VerificationError';
  }
}

/** What the journal's endpoints answer. */
interface JournalAnswer {
  requests: JournalRecord[];
  window: JournalRecords['window'];
}

/** The entries, the window defined beside them (not enumerable: `[]` still equals `[]`). */
function withWindow(answer: JournalAnswer): JournalRecords {
  return Object.defineProperty(answer.requests, 'window', {
    value: answer.window,
    enumerable: false,
  }) as JournalRecords;
}

/** Sends one admin request and reads its JSON answer; a failure is a `QaControlError`. */
type AdminCall = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** The admin API of the mock at `origin`, with the admin token on every request. */
function adminCaller(
  origin: string,
  options: Pick<QaControlsOptions, 'adminToken'>,
  send: (request: Request) => Promise<Response>,
): AdminCall {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { [ADMIN_TOKEN_HEADER]: options.adminToken };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await send(
      new Request(`${origin}${ADMIN_PREFIX}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await response.text();
    if (!response.ok) {
      throw new QaControlError(
        response.status,
        `${method} ${ADMIN_PREFIX}${path}: ${response.status} ${errorMessageOf(text)}`,
      );
    }
    return JSON.parse(text) as T;
  };
}

/** The `error` of a JSON error body, else the text as it came (a proxy in between, say). */
function errorMessageOf(text: string): string {
  try {
    return String((JSON.parse(text) as { error?: unknown }).error ?? text);
  } catch {
    return text;
  }
}

function recordControls(call: AdminCall): RecordControls {
  const recordPath = (family: string, id: string) =>
    `/records/${encodeURIComponent(family)}/${encodeURIComponent(id)}`;
  return {
    // The mock finds the identifier in the record (POST), so the client needs no list of id fields.
    put: (family, record) => call('POST', `/records/${encodeURIComponent(family)}`, record),
    remove: async (family, id) => {
      await call('DELETE', recordPath(family, id));
    },
    list: async () => (await call<{ edits: RecordEditEntry[] }>('GET', '/records')).edits,
    clear: async () => {
      await call('DELETE', '/records');
    },
  };
}

/** `/<resource>` or, with an id, `/<resource>/<id>`. */
function oneOrAll(resource: string, id: string | undefined): string {
  return id === undefined ? `/${resource}` : `/${resource}/${encodeURIComponent(id)}`;
}

export function qaControls(options: QaControlsOptions): QaControls {
  refuseUnknownOptions('qaControls', options, ['origin', 'adminToken', 'fetch']);
  const origin = new URL(options.origin).origin;
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const call = adminCaller(origin, options, send);
  return {
    ...controlsOver(call),
    scope: async (scopeOptions: ScopeOptions = {}) => {
      refuseUnknownOptions('scope', scopeOptions, ['purpose']);
      const made = await call<ScopeAnswer>('POST', '/scopes', scopeOptions);
      // The scope's controls are the mock's own, under its path: one client, one set of routes.
      const scoped = (method: string, path: string, body?: unknown) =>
        call(method, `/scopes/${encodeURIComponent(made.id)}${path}`, body);
      return {
        ...controlsOver(scoped as AdminCall),
        id: made.id,
        apiKey: made.apiKey,
        keyName: made.keyName,
        purpose: made.purpose,
        tier: made.tier,
        ttlSeconds: made.ttlSeconds,
        close: async () => {
          await call('DELETE', `/scopes/${encodeURIComponent(made.id)}`);
        },
      } satisfies QaScope;
    },
    scopes: async () => (await call<{ scopes: LiveScope[] }>('GET', '/scopes')).scopes,
  };
}

/** What `POST /__mock/scopes` answers. */
type ScopeAnswer = Pick<QaScope, 'id' | 'apiKey' | 'keyName' | 'purpose' | 'tier' | 'ttlSeconds'>;

/** Every control but the scopes', over the admin routes `call` reaches (the mock's, or one scope's). */
function controlsOver(call: AdminCall): Omit<QaControls, 'scope' | 'scopes'> {
  return {
    records: recordControls(call),
    armFault: (fault) => call('POST', '/faults', fault),
    clearFaults: async (id) =>
      (await call<{ cleared: number }>('DELETE', oneOrAll('faults', id))).cleared,
    armedFaults: async () => (await call<{ armed: ArmedFault[] }>('GET', '/faults')).armed,
    resetRateLimits: async (keyName) => {
      await call('POST', '/rate-limits/reset', keyName === undefined ? {} : { key: keyName });
    },
    advanceClock: async (seconds) =>
      (await call<{ clockOffsetSeconds: number }>('POST', '/clock/advance', { seconds }))
        .clockOffsetSeconds,
    journal: async (limit = 50) =>
      withWindow(await call<JournalAnswer>('GET', `/requests?limit=${limit}`)),
    clearJournal: async () => {
      await call('DELETE', '/requests');
    },
    config: () => call('GET', '/config'),
    stub: (stub) => call('POST', '/stubs', stub),
    reset: async () => {
      await call('POST', '/reset', {});
    },
    stubs: async () => (await call<{ stubs: Stub[] }>('GET', '/stubs')).stubs,
    removeStubs: async (id) =>
      (await call<{ removed: number }>('DELETE', oneOrAll('stubs', id))).removed,
    requests: async (match) =>
      withWindow(await call<JournalAnswer>('POST', '/requests/find', { match })),
    verify: async (match, expect = { atLeast: 1 }) => {
      const result = await call<{ ok: boolean; count: number; message: string }>(
        'POST',
        '/requests/verify',
        { match, ...expect },
      );
      if (!result.ok) throw new VerificationError(result.message, result.count);
    },
  };
}
