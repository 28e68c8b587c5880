/**
 * @module api/on-demand
 * The package root's functions whose modules most callers never use, loaded on their first call:
 * the contract suite (which runs vitest) and the key-holding proxy (with the evidence layer).
 * Importing the package root for the mock alone loads neither. Same signatures as the functions
 * they stand for.
 */
import type {
  ContractReport,
  RunContractOptions,
  RunningProxy,
  StartProxyOptions,
} from './types.js';

/**
 * Runs the contract suite; resolves to its JSON report (`passed` is the verdict; the command exits
 * 0 exactly when it is true, and so does vitest run bare). Rejects with a one-line message on bad
 * options, an unreachable target or a refused key, as the command exits 2.
 */
export async function runContract(options?: RunContractOptions): Promise<ContractReport> {
  const suite = await import('../../contract-tests/run.js');
  return suite.runContract(options);
}

/** Starts the key-holding proxy in front of a live base URL (or the mock). */
export async function startProxy(options: StartProxyOptions): Promise<RunningProxy> {
  const proxy = await import('../proxy/index.js');
  return proxy.startProxy(options);
}
