/**
 * @module proxy/listen
 * `startProxy(options)`: the proxy on a socket (port 0 = ephemeral by default), for the CLI and
 * end-to-end tests. Closing stops accepting, ends idle keep-alive connections and waits for
 * in-flight requests.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { BASE_PATH } from '../contract/index.js';
import { createProxyApp, type ProxyApp } from './app.js';
import { DEFAULT_PROXY_HOST, type ProxyInput } from './options.js';

export interface RunningProxy {
  /** e.g. `http://127.0.0.1:4020/web-data/v1`: point the browser app here. */
  url: string;
  origin: string;
  app: ProxyApp;
  close(): Promise<void>;
}

export type StartProxyOptions = ProxyInput & { port?: number; host?: string };

export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const { port = 0, host = DEFAULT_PROXY_HOST, ...input } = options;
  const app = await createProxyApp(input);
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const origin = `http://${shownHost}:${address.port}`;
  return {
    url: `${origin}${BASE_PATH}`,
    origin,
    app,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        (server as ServerType & { closeIdleConnections?: () => void }).closeIdleConnections?.();
      }),
  };
}
