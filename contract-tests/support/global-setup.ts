/**
 * @module support/global-setup
 * Runs once before the suite: starts the mock when no target is given (at the release the suite
 * checks, `CONTRACT_RELEASE`; by default `unreleased`, every operation), checks once that the target answers at all, so a dead or hung target
 * stops the run with one clear message instead of a hundred timeouts, and hands the base URL to the
 * test files.
 */
import type { TestProject } from 'vitest/node';
import { readOptions } from './options.js';

declare module 'vitest' {
  interface ProvidedContext {
    contractBaseUrl: string;
  }
}

async function assertReachable(baseUrl: string, timeoutMs: number): Promise<void> {
  try {
    // Any HTTP answer (even 401 or 404) proves the target is up; only no answer is fatal.
    await fetch(baseUrl, {
      method: 'GET',
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
  } catch (error) {
    const why =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms (CONTRACT_TIMEOUT_MS)`
        : String((error as Error).cause ?? error);
    throw new Error(
      `Contract target ${baseUrl} is not reachable: ${why}. Check CONTRACT_BASE_URL; nothing was tested.`,
    );
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const options = readOptions();
  let baseUrl = options.baseUrl;
  let close = async () => {};
  if (!baseUrl) {
    const { startMockServer } = await import('../../src/server/listen.js');
    // The suite judges the mock's raw answers, so the mock's own response self-check stays off.
    const server = await startMockServer({
      apiVersion: options.release,
      seed: options.seed,
      validateResponses: false,
    });
    baseUrl = server.url;
    close = () => server.close();
  }
  await assertReachable(baseUrl, options.timeoutMs);
  project.provide('contractBaseUrl', baseUrl);
  // The reporter runs in this process too and names the target it reports on.
  process.env.CONTRACT_RESOLVED_BASE_URL = baseUrl;
  const mode = options.strict ? 'strict' : 'default (undeclared fields and inferred shapes warn)';
  console.log(
    `contract suite: target ${baseUrl} (${options.target}), release ${options.release ?? 'latest'}, seed ${options.seed}, policy ${mode}, concurrency ${options.concurrency}`,
  );
  return close;
}
