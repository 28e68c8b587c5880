/**
 * @module listen
 * The one place that opens a socket: listen first (so an ephemeral port is known), then build the
 * app with its real origin, so absolute hrefs point at this very server. Closes cleanly: stops
 * accepting, lets in-flight requests finish, then frees the port.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { BASE_PATH } from '../contract/index.js';
import { createApp, type MockApp } from './app.js';
import { DEFAULT_HOST, type AppOptions } from './options.js';

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

/** Wraps a host for use in a URL (IPv6 literals need brackets). */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function startMockServer(options: ListenOptions = {}): Promise<RunningServer> {
  const host = options.host ?? DEFAULT_HOST;
  let app: MockApp | undefined;
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: (request, env) => (app ? app.fetch(request, env) : new Response('starting', { status: 503 })), port: options.port ?? 0, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  try {
    const { port } = server.address() as AddressInfo;
    const origin = options.origin ?? `http://${urlHost(host === '0.0.0.0' ? '127.0.0.1' : host)}:${port}`;
    const built = await createApp({ ...options, origin });
    await options.extend?.(built);
    app = built;
    return { url: `${origin}${BASE_PATH}`, origin, app: built, server, close: () => closeServer(server) };
  } catch (error) {
    await closeServer(server);
    throw error;
  }
}

/** How often idle keep-alive connections are closed while shutting down. */
const IDLE_SWEEP_MS = 50;
/** In-flight requests get this long to finish (a `Prefer: delay` can hold one for minutes). */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops accepting connections and resolves once in-flight requests are done. A keep-alive
 * connection becomes idle only when its request ends, so idle connections are swept until the
 * server is closed; whatever is still open after the grace period is closed by force.
 */
export function closeServer(server: ServerType): Promise<void> {
  const http = server as ServerType & { closeIdleConnections?: () => void; closeAllConnections?: () => void };
  return new Promise((resolve, reject) => {
    const sweep = setInterval(() => http.closeIdleConnections?.(), IDLE_SWEEP_MS);
    const deadline = setTimeout(() => http.closeAllConnections?.(), SHUTDOWN_GRACE_MS);
    deadline.unref();
    server.close((error) => {
      clearInterval(sweep);
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve();
    });
    http.closeIdleConnections?.();
  });
}
