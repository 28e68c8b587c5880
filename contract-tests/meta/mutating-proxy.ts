/**
 * @module meta/mutating-proxy
 * A small HTTP proxy in front of a real mock that breaks one documented rule at a time, or changes
 * something the sources allow: it can rewrite the request on its way in, answer in the mock's place,
 * and change the status, headers, JSON body and wire form (indentation, gzip, chunked) on the way
 * out. By default the mock's absolute hrefs are rewritten to the proxy's origin so only the chosen
 * rule changes; `rewriteHrefs: false` makes it a plain pass-through that does not forward `Host`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { BASE_PATH } from '../../src/contract/index.js';

export interface ProxiedRequest {
  method: string;
  /** Path below the base URL, still percent-encoded (`/product-parts/A%23B`). */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  /** The JSON request body, parsed (mutable); undefined when there is none or it is not JSON. */
  json?: unknown;
}

export interface ProxiedResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON body (mutable), or undefined for non-JSON bodies. */
  json?: unknown;
  /** The body as received, for answers that are not JSON. */
  raw?: Buffer;
  /** How the body goes on the wire: JSON indentation, gzip (when the client accepts it), chunked (no content-length). */
  wire?: { indent?: number; gzip?: boolean; chunked?: boolean };
}

export interface Mutation {
  /** Changes the request before it reaches the mock. */
  request?(req: ProxiedRequest): void;
  /** Answers in the mock's place (the request never reaches it) when it returns a response. */
  reply?(req: ProxiedRequest): ProxiedResponse | undefined;
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

function parseJson(bytes: Buffer): unknown {
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined; // not JSON (a malformed body on purpose): forwarded as it came
  }
}

export interface ProxyOptions {
  /** Rewrite the mock's absolute hrefs to the proxy's origin (default). Off: a plain pass-through. */
  rewriteHrefs?: boolean;
}

/** Bytes per chunk when a body is sent chunked. */
const CHUNK_BYTES = 512;

export async function startMutatingProxy(
  upstreamUrl: string,
  options: ProxyOptions = {},
): Promise<MutatingProxy> {
  const rewriteHrefs = options.rewriteHrefs ?? true;
  let mutation: Mutation | undefined;
  let ownUrl = '';
  const upstream = new URL(upstreamUrl);
  // A failed exchange (upstream gone) ends that connection instead of an unhandled rejection.
  const server: Server = createServer(
    (req, res) => void answer(req, res).catch((error: Error) => res.destroy(error)),
  );
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const incoming = new URL(req.url ?? '/', 'http://proxy');
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    // Paths outside the API (the mock's /examples.json) pass through as they are.
    const inApi = incoming.pathname.startsWith(BASE_PATH);
    const proxied: ProxiedRequest = {
      method: req.method ?? 'GET',
      path: inApi ? incoming.pathname.slice(BASE_PATH.length) : incoming.pathname,
      query: incoming.searchParams,
      headers,
    };
    const raw = await readBody(req);
    proxied.json = parseJson(raw);
    // The proxy's own headers are its business; `Host` is never forwarded (fetch sets the upstream's).
    mutation?.request?.(proxied);
    const out =
      mutation?.reply?.(proxied) ??
      (await forward(
        proxied,
        proxied.json === undefined ? raw : Buffer.from(JSON.stringify(proxied.json)),
        inApi,
      ));
    mutation?.response?.(out, proxied);
    let payload =
      out.json !== undefined
        ? Buffer.from(JSON.stringify(out.json, null, out.wire?.indent))
        : (out.raw ?? Buffer.alloc(0));
    out.headers.delete('content-encoding');
    out.headers.delete('transfer-encoding');
    out.headers.delete('content-length');
    if (out.wire?.gzip && /gzip/.test(req.headers['accept-encoding'] ?? '')) {
      payload = gzipSync(payload);
      out.headers.set('content-encoding', 'gzip');
    }
    if (proxied.method !== 'HEAD' && !out.wire?.chunked)
      out.headers.set('content-length', String(payload.length));
    const outHeaders: Record<string, string> = {};
    out.headers.forEach((value, name) => (outHeaders[name] = value));
    res.writeHead(out.status, outHeaders);
    if (proxied.method === 'HEAD') res.end();
    else if (out.wire?.chunked) {
      for (let at = 0; at < payload.length; at += CHUNK_BYTES)
        res.write(payload.subarray(at, at + CHUNK_BYTES));
      res.end();
    } else res.end(payload);
  }

  async function forward(
    proxied: ProxiedRequest,
    body: Buffer,
    inApi: boolean,
  ): Promise<ProxiedResponse> {
    const qs = proxied.query.toString();
    const target = `${upstream.origin}${inApi ? BASE_PATH : ''}${proxied.path}${qs ? `?${qs}` : ''}`;
    const answer = await fetch(target, {
      method: proxied.method,
      headers: proxied.headers,
      body: body.length > 0 ? new Uint8Array(body) : undefined,
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const out: ProxiedResponse = {
      status: answer.status,
      headers: new Headers(answer.headers),
      raw: bytes,
    };
    const isJson = (answer.headers.get('content-type') ?? '').includes('json');
    if (isJson && bytes.length > 0) {
      const text = bytes.toString('utf8');
      out.json = JSON.parse(rewriteHrefs ? text.split(upstreamUrl).join(ownUrl) : text);
    }
    return out;
  }
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
