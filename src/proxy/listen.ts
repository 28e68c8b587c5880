/**
 * @module proxy/listen
 * `startProxy(options)`: the proxy on a socket (port 0 = ephemeral by default), for the CLI and
 * end-to-end tests, through the shared helper in src/net/listen.ts (the mock's too): closing
 * ends silent and idle connections at once and cuts requests still in flight after the grace.
 * The address it listens on is a host name it answers to (besides loopback and --proxy-host).
 */
import { BASE_PATH } from '../contract/index.js';
import { listen } from '../net/listen.js';
import { createProxyApp, type ProxyApp } from './app.js';
import { DEFAULT_PROXY_HOST, type ProxyInput } from './options.js';

export interface RunningProxy {
  /** e.g. `http://127.0.0.1:4020/web-data/v1`: point the browser app here. */
  url: string;
  origin: string;
  app: ProxyApp;
  close(): Promise<void>;
}

export type StartProxyOptions = ProxyInput & {
  port?: number;
  host?: string;
  /** Shutdown grace for requests in flight (default 10 s). */ graceMs?: number;
};

/** Listening on every interface names no host; a concrete address does. */
const WILDCARDS = new Set(['0.0.0.0', '::']);

export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const { port = 0, host = DEFAULT_PROXY_HOST, graceMs, ...input } = options;
  const app = await createProxyApp({
    ...input,
    allowedHosts: [...(input.allowedHosts ?? []), ...(WILDCARDS.has(host) ? [] : [host])],
  });
  const listening = await listen(app.fetch, { port, host, graceMs });
  return {
    url: `${listening.origin}${BASE_PATH}`,
    origin: listening.origin,
    app,
    async close() {
      await listening.close();
      app.profiler?.close();
    },
  };
}
