/**
 * @module listen
 * The mock on a socket: listen first (so an ephemeral port is known), then build the app with its
 * real origin, so absolute hrefs point at this very server. Opening and closing (with its bounded
 * grace) is the shared helper in src/net/listen.ts, which the proxy uses too.
 */
import type { ServerType } from '@hono/node-server';
import { BASE_PATH } from '../contract/index.js';
import { listen } from '../net/listen.js';
import { createApp, type MockApp } from './app.js';
import { DEFAULT_HOST, type AppOptions } from './options.js';
import { jsonResponse } from './response.js';

export interface ListenOptions extends Partial<AppOptions> {
  /** 0 (the default here) picks a free port; the CLI passes 4010. */
  port?: number;
  host?: string;
  /** Extra routes (docs page, proxy, QA controls) mounted by the caller before the mock's own. */
  extend?: (app: MockApp) => void | Promise<void>;
}

export interface RunningServer {
  /** Base URL of the API, e.g. `http://127.0.0.1:4010/web-data/v1`. */
  url: string;
  origin: string;
  app: MockApp;
  server: ServerType;
  close(): Promise<void>;
}

/**
 * What a request gets in the moment between listening and serving (the dataset is being built: a
 * few seconds at the live size): the API's `{error}` shape, and when to try again, so a client or
 * a health probe that is early is told to wait rather than handed a bare text.
 */
function startingAnswer(): Response {
  return jsonResponse(
    503,
    { error: 'The mock is starting (building its dataset); retry shortly' },
    { 'retry-after': '1' },
  );
}

export async function startMockServer(options: ListenOptions = {}): Promise<RunningServer> {
  let app: MockApp | undefined;
  const listening = await listen(
    (request, env) => (app ? app.fetch(request, env) : startingAnswer()),
    { port: options.port ?? 0, host: options.host ?? DEFAULT_HOST },
  );
  try {
    const origin = options.origin ?? listening.origin;
    // Without a public origin given, hrefs name the origin each request came to (href-origin.ts).
    const hrefsFollowHost = options.hrefsFollowHost ?? options.origin === undefined;
    const built = await createApp({ ...options, origin, hrefsFollowHost });
    await options.extend?.(built);
    app = built;
    return {
      url: `${origin}${BASE_PATH}`,
      origin,
      app: built,
      server: listening.server,
      // The store after the last response: a shared one gives back what this instance still holds.
      close: () =>
        listening
          .close()
          .finally(() => built.state.scopes?.close())
          .finally(() => Promise.all([built.state.stores.close(), built.state.records.close()])),
    };
  } catch (error) {
    await listening.close();
    throw error;
  }
}
