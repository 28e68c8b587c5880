/**
 * @module proxy
 * What the CLI and the mock import from the proxy: the app factory, the listener, flag parsing
 * and help, and the replay middleware for `--replay <dir>`.
 */
export { createProxyApp, EXPOSED_HEADERS, STATS_PATH, VIOLATIONS_HEADER, type ProxyApp } from './app.js';
export { parseProxyArgs, proxyHelp, ProxyUsageError } from './args.js';
export { runProxyCli } from './cli.js';
export { startProxy, type RunningProxy, type StartProxyOptions } from './listen.js';
export { API_KEY_ENV, DEFAULT_PROXY_PORT, type ProxyInput, type ProxyOptions } from './options.js';
export { createReplayMiddleware, loadRecordings } from './replay.js';
export type { ProxyStats } from './report.js';
