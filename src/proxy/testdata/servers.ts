/**
 * @module proxy/testdata/servers
 * Test-only helpers: any Hono app on an ephemeral port (a stand-in live service, a deliberately
 * broken one, a static page) and a log sink that keeps the proxy's JSON lines.
 */
import type { Hono } from 'hono';
import { BASE_PATH } from '../../contract/index.js';
import { listen } from '../../net/listen.js';

export interface Served {
  origin: string;
  /** `origin` + `/web-data/v1`. */
  url: string;
  close(): Promise<void>;
}

/** Tests leave hanging upstream requests on purpose (timeouts): closing does not wait for them (no grace). */
export async function serveApp(app: Hono): Promise<Served> {
  const { origin, close } = await listen(app.fetch, { port: 0, host: '127.0.0.1', graceMs: 0 });
  return { origin, url: `${origin}${BASE_PATH}`, close };
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
