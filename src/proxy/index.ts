/**
 * @module proxy
 * What the CLI imports from the proxy: the app factory, the listener, flag parsing and help.
 * (Recording and replay live in src/recordings/, shared with the mock.)
 */
export {
  createProxyApp,
  EXPOSED_HEADERS,
  STATS_PATH,
  VIOLATIONS_HEADER,
  type ProxyApp,
} from './app.js';
export { parseProxyArgs, proxyHelp } from './args.js';
export { runProxyCli } from './cli.js';
export { startProxy, type RunningProxy, type StartProxyOptions } from './listen.js';
export { API_KEY_ENV, DEFAULT_PROXY_PORT, type ProxyInput, type ProxyOptions } from './options.js';
export type { ProxyStats } from './report.js';
