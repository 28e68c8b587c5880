/**
 * @module api/on-demand
 * The package root's functions whose modules most callers never use, loaded on their first call:
 * the contract suite (which runs vitest) and the key-holding proxy (with the evidence layer).
 * Importing the package root for the mock alone loads neither. Same signatures as the functions
 * they stand for; an option neither knows is refused before anything loads (option-names.ts).
 */
import type {
  ContractReport,
  RunContractOptions,
  RunningProxy,
  StartProxyOptions,
} from './types.js';
import { refuseUnknownOptions } from './option-names.js';

/** Every member of RunContractOptions (the command's flags in camelCase, the keys, `baseUrl`, `output`). */
const CONTRACT_OPTION_NAMES = [
  'baseUrl',
  'apiKey',
  'restrictedApiKey',
  'rateLimitApiKey',
  'release',
  'strict',
  'allowlist',
  'publicBaseUrl',
  'xrefNumbers',
  'baseline',
  'restrictedFamilies',
  'provokeRateLimit',
  'concurrency',
  'timeoutMs',
  'maxRequests',
  'maxBodyBytes',
  'maxRetryWaitMs',
  'seed',
  'reportDir',
  'output',
] as const satisfies readonly (keyof RunContractOptions)[];

/** Every member of StartProxyOptions. */
const PROXY_OPTION_NAMES = [
  'upstream',
  'apiKey',
  'allowedOrigins',
  'allowedHosts',
  'signalViolations',
  'upstreamTimeoutMs',
  'maxJsonBytes',
  'maxRequestBytes',
  'recordingsDir',
  'fixturesDir',
  'profileFile',
  'profileIntervalMs',
  'apiVersion',
  'log',
  'now',
  'fetch',
  'port',
  'host',
  'graceMs',
] as const satisfies readonly (keyof StartProxyOptions)[];

/** Compile-time: an option added to either type and not to its list fails here. */
const everyOptionNamed: {
  contract: Record<
    Exclude<keyof RunContractOptions, (typeof CONTRACT_OPTION_NAMES)[number]>,
    never
  >;
  proxy: Record<Exclude<keyof StartProxyOptions, (typeof PROXY_OPTION_NAMES)[number]>, never>;
} = { contract: {}, proxy: {} };
void everyOptionNamed;

/**
 * Runs the contract suite; resolves to its JSON report (`passed` is the verdict; the command exits
 * 0 exactly when it is true, and so does vitest run bare). Rejects with a one-line message on bad
 * options, an unreachable target or a refused key, as the command exits 2.
 */
export async function runContract(options?: RunContractOptions): Promise<ContractReport> {
  refuseUnknownOptions('runContract', options, CONTRACT_OPTION_NAMES);
  const suite = await import('../suite/run.js');
  return suite.runContract(options);
}

/** Starts the key-holding proxy in front of a live base URL (or the mock). */
export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  refuseUnknownOptions('startProxy', options, PROXY_OPTION_NAMES);
  const proxy = await import('../proxy/index.js');
  return proxy.startProxy(options);
}
