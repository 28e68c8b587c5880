/**
 * @module meta/mutating-proxy
 * A small HTTP proxy in front of a real mock that breaks one documented rule at a time: it can
 * rewrite the request on its way in and the status, headers and JSON body on the way out. The
 * mock's absolute hrefs are rewritten to the proxy's origin so only the chosen rule breaks.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BASE_PATH } from '../../src/contract/index.js';

export interface ProxiedRequest {
  method: string;
  /** Path below the base URL, still percent-encoded (`/product-parts/A%23B`). */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
}

export interface ProxiedResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON body (mutable), or undefined for non-JSON bodies. */
  json?: unknown;
}

export interface Mutation {
  /** Changes the request before it reaches the mock. */
  request?(req: ProxiedRequest): void;
  /** Changes the response before it reaches the suite. */
  response?(res: ProxiedResponse, req: ProxiedRequest): void;
}

export interface MutatingProxy {
  url: string;
  use(mutation: Mutation | undefined): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startMutatingProxy(upstreamUrl: string): Promise<MutatingProxy> {
  let mutation: Mutation | undefined;
  let ownUrl = '';
  const upstream = new URL(upstreamUrl);
  const server: Server = createServer(async (req, res) => {
    const incoming = new URL(req.url ?? '/', 'http://proxy');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    const proxied: ProxiedRequest = { method: req.method ?? 'GET', path: incoming.pathname.slice(BASE_PATH.length), query: incoming.searchParams, headers };
    const body = await readBody(req);
    mutation?.request?.(proxied);
    const qs = proxied.query.toString();
    const target = `${upstream.origin}${BASE_PATH}${proxied.path}${qs ? `?${qs}` : ''}`;
    const answer = await fetch(target, { method: proxied.method, headers: proxied.headers, body: body.length > 0 ? new Uint8Array(body) : undefined });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const out: ProxiedResponse = { status: answer.status, headers: new Headers(answer.headers) };
    const isJson = (answer.headers.get('content-type') ?? '').includes('json');
    if (isJson && bytes.length > 0) out.json = JSON.parse(bytes.toString('utf8').split(upstreamUrl).join(ownUrl));
    mutation?.response?.(out, proxied);
    const payload = out.json !== undefined ? Buffer.from(JSON.stringify(out.json)) : bytes;
    out.headers.delete('content-encoding');
    out.headers.delete('transfer-encoding');
    if (proxied.method !== 'HEAD') out.headers.set('content-length', String(payload.length));
    const outHeaders: Record<string, string> = {};
    out.headers.forEach((value, name) => (outHeaders[name] = value));
    res.writeHead(out.status, outHeaders);
    if (proxied.method === 'HEAD') res.end();
    else res.end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ownUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}`;
  return {
    url: ownUrl,
    use(m) {
      mutation = m;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}
