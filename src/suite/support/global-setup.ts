/**
 * @module support/global-setup
 * Runs once before the suite: starts the mock when no target is given (at the release the suite
 * checks, `CONTRACT_RELEASE`; by default `unreleased`, every operation), checks once that the target answers at all and takes the key
 * (preflight.ts), so a dead target or a refused key stops the run with one clear message (and a
 * summary saying it) instead of a hundred failures, and hands the base URL to the test files. It
 * names the release the run checks as the reports do (the resolved one, never "latest").
 */
import type { TestProject } from 'vitest/node';
import { loadContract } from '../../contract/index.js';
import { mockTarget } from './mock-target.js';
import { readOptions } from './options.js';
import { refusalOf, reportRefusal } from './preflight.js';

declare module 'vitest' {
  interface ProvidedContext {
    contractBaseUrl: string;
    /** `mock` when the base URL given is one of our mocks (mock-target.ts); else `live` or bundled. */
    contractTargetKind: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const found = process.env.CONTRACT_BASE_URL
    ? await mockTarget(readOptions().baseUrl!)
    : undefined;
  if (found) {
    // The reporter reads the options in this process; the test files get them provided.
    process.env.CONTRACT_TARGET_KIND = 'mock';
  }
  const options = readOptions();
  let baseUrl = options.baseUrl;
  let close = async () => {};
  if (!baseUrl) {
    const { startMockServer } = await import('../../server/listen.js');
    // The suite judges the mock's raw answers, so the mock's own response self-check stays off.
    const server = await startMockServer({
      apiVersion: options.release,
      seed: options.seed,
      validateResponses: false,
    });
    baseUrl = server.url;
    close = () => server.close();
  }
  const contract = await loadContract({ release: options.release });
  const refused = await refusalOf({ ...options, baseUrl }, contract);
  if (refused) {
    await close();
    reportRefusal(options, baseUrl, contract.release, refused);
    throw new Error(`Contract suite: ${refused}`);
  }
  project.provide('contractBaseUrl', baseUrl);
  project.provide('contractTargetKind', process.env.CONTRACT_TARGET_KIND ?? '');
  // The reporter runs in this process too and names the target it reports on.
  process.env.CONTRACT_RESOLVED_BASE_URL = baseUrl;
  const mode = options.strict ? 'strict' : 'default (undeclared fields and inferred shapes warn)';
  console.log(
    `contract suite: target ${baseUrl} (${options.target}${found ? ': a web-data mock, every check of the bundled mock' : ''}), release ${contract.release}, seed ${options.seed}, policy ${mode}, concurrency ${options.concurrency}`,
  );
  return close;
}
