/**
 * @module net/listen
 * The one place that opens and closes a socket, for the mock and the proxy alike. `listen`
 * serves a fetch handler (Hono's `app.fetch`) on a port (0 = ephemeral) and returns the origin
 * it can be reached at. `close` stops accepting and shuts every connection within a bounded
 * grace: connections with no request in flight (idle keep-alive ones, and ones that connected
 * and never sent a request) are closed at once and swept until the server is closed; requests
 * in flight get the grace period to finish, then their connections are closed by force.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** How often connections without a request in flight are closed while shutting down. */
const IDLE_SWEEP_MS = 50;
/** In-flight requests get this long to finish (a `Prefer: delay` or a slow download can hold one for minutes). */
export const SHUTDOWN_GRACE_MS = 10_000;

export type FetchHandler = (request: Request, env: unknown) => Response | Promise<Response>;

export interface ListenOptions {
  port: number;
  host: string;
  /** How long `close()` waits for requests in flight before cutting them off (default 10 s). */
  graceMs?: number;
}

export interface Listening {
  server: ServerType;
  /** e.g. `http://127.0.0.1:4010` (a wildcard host is shown as loopback). */
  origin: string;
  close(): Promise<void>;
}

/** Wraps a host for use in a URL (IPv6 literals need brackets); a wildcard address is reached through loopback. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * A taken port is the user's to change, and the message says how: each command maps it to its
 * usage error (exit 2).
 */
export class PortTakenError extends Error {
  override name = 'PortTakenError';
}

function portTaken(options: ListenOptions): PortTakenError {
  return new PortTakenError(
    `port ${options.port} on ${options.host} is taken (another mock or server listens there): choose another with --port <n>, or --port 0 for any free port`,
  );
}

export async function listen(fetch: FetchHandler, options: ListenOptions): Promise<Listening> {
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch, port: options.port, hostname: options.host }, () => resolve(s));
    s.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? portTaken(options) : error),
    );
  });
  const connections = trackConnections(server);
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://${urlHost(options.host)}:${port}`,
    close: () => closeServer(server, connections, options.graceMs ?? SHUTDOWN_GRACE_MS),
  };
}

interface Connections {
  /** Closes every connection that has no request in flight. */
  closeIdle(): void;
  closeAll(): void;
}

/**
 * Node's `closeIdleConnections()` leaves alone a connection that never sent a request (it has no
 * parser state yet), so one silent client would hold the server open: track sockets ourselves.
 */
function trackConnections(server: ServerType): Connections {
  const open = new Set<Socket>();
  const busy = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      busy.delete(socket);
    });
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (busy.get(socket) ?? 1) - 1;
      if (left > 0) busy.set(socket, left);
      else busy.delete(socket);
    });
  });
  return {
    closeIdle: () => {
      for (const socket of open) if (!busy.has(socket)) socket.destroy();
    },
    closeAll: () => {
      for (const socket of open) socket.destroy();
    },
  };
}

/** Resolves once the server is closed: at most the grace period plus a sweep after it is called. */
function closeServer(server: ServerType, connections: Connections, graceMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const sweep = setInterval(connections.closeIdle, IDLE_SWEEP_MS);
    const deadline = setTimeout(connections.closeAll, graceMs);
    server.close((error) => {
      clearInterval(sweep);
      clearTimeout(deadline);
      if (error) reject(error);
      else resolve();
    });
    connections.closeIdle();
  });
}
