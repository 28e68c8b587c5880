/**
 * @module proxy/testdata/servers
 * Test-only helpers: any Hono app on an ephemeral port (a stand-in live service, a deliberately
 * broken one, a static page), a log sink that keeps the proxy's JSON lines, and a GET with
 * exactly the request line and headers a test chooses.
 */
import { Hono } from 'hono';
import { BASE_PATH } from '../../contract/index.js';
import { listen } from '../../net/listen.js';
import { request, type IncomingHttpHeaders } from 'node:http';

export interface Served {
  origin: string;
  /** `origin` + `/web-data/v1`. */
  url: string;
  close(): Promise<void>;
}

/** What a stand-in upstream received: the path (from the base path on, query included) and the headers. */
export interface SeenRequest {
  path: string;
  headers: Record<string, string>;
}

/** A stand-in upstream that notes every request it receives in `seen` before its routes answer. */
export function recordingUpstream(seen: SeenRequest[]): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => (headers[name] = value));
    seen.push({ path: c.req.url.slice(c.req.url.indexOf(BASE_PATH)), headers });
    await next();
  });
  return app;
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

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request with exactly the request line and Host we choose (fetch would normalise both). */
export function rawGet(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    request(
      { host: url.hostname, port: url.port, path, headers, setHost: !('host' in headers) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    )
      .on('error', reject)
      .end();
  });
}

