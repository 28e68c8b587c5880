/**
 * @module proxy/testdata/servers
 * Test-only helpers: any Hono app on an ephemeral port (a stand-in live service, a deliberately
 * broken one, a static page) and a log sink that keeps the proxy's JSON lines.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { BASE_PATH } from '../../contract/index.js';

export interface Served {
  origin: string;
  /** `origin` + `/web-data/v1`. */
  url: string;
  close(): Promise<void>;
}

export async function serveApp(app: Hono): Promise<Served> {
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}${BASE_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        const http = server as ServerType & { closeAllConnections?: () => void };
        server.close(() => resolve());
        // Tests leave hanging upstream requests on purpose (timeouts); do not wait for them.
        http.closeAllConnections?.();
      }),
  };
}

/** Collects the proxy's log lines; `events()` parses them. */
export function logSink(): { log: (line: string) => void; lines: string[]; events(kind?: string): Record<string, unknown>[] } {
  const lines: string[] = [];
  return {
    lines,
    log: (line) => lines.push(line),
    events: (kind) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => kind === undefined || e.event === kind),
  };
}
