/**
 * @module api/runner-mock
 * What every test-runner helper (api/vitest.ts, api/node-test.ts) shares and no runner's API is in:
 * the running mock the environment names (`WEB_DATA_MOCK_URL` and `MOCK_ADMIN_TOKEN`, e.g. after a
 * `web-data-mock --detach` step), the options of a mock the helper starts itself (`MOCK_SEED`, as
 * the CLI reads it), and one test's scope of a mock (spec/DECISIONS.md 117).
 */
import { randomUUID } from 'node:crypto';
import { BASE_PATH } from '../contract/index.js';
import { EXAMPLES_PATH } from '../server/examples.js';
import { startMock } from './mock.js';
import { refuseUnknownOptions } from './option-names.js';
import { QaControlError, qaControls } from './qa.js';
import type {
  Examples,
  RunningMock,
  SharedMock,
  StartMockOptions,
  TestScope,
  TestScopeOptions,
} from './types.js';

/** The base URL (or origin) of a running mock the helpers use instead of starting one. */
export const MOCK_URL_VARIABLE = 'WEB_DATA_MOCK_URL';
/** The running mock's admin token; the CLI reads the same variable for `--admin-token`. */
export const ADMIN_TOKEN_VARIABLE = 'MOCK_ADMIN_TOKEN';
/** The seed of a mock the helpers start; the CLI reads the same variable for `--seed`. */
export const SEED_VARIABLE = 'MOCK_SEED';

/** Variables by name (process.env's shape without @types/node in the declarations). */
export type Environment = Record<string, string | undefined>;

const OPTION_NAMES = ['purpose', 'mock'] as const satisfies readonly (keyof TestScopeOptions)[];

/** The helpers' options, checked as startMock checks its own (an unknown name is refused). */
export function checkedScopeOptions(
  caller: string,
  given: TestScopeOptions | undefined,
): TestScopeOptions {
  refuseUnknownOptions(caller, given, OPTION_NAMES);
  return given ?? {};
}

/** The running mock the environment names, or undefined when it names none. */
export function sharedMockFromEnv(env: Environment = process.env): SharedMock | undefined {
  const given = env[MOCK_URL_VARIABLE];
  if (given === undefined || given === '') return undefined;
  let origin: string;
  try {
    const url = new URL(given);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('not http');
    origin = url.origin;
  } catch {
    throw new TypeError(
      `${MOCK_URL_VARIABLE} must be the http(s) URL of a running mock, e.g. http://127.0.0.1:4010/web-data/v1 (got "${given.slice(0, 200)}")`,
    );
  }
  const adminToken = env[ADMIN_TOKEN_VARIABLE];
  if (!adminToken)
    throw new TypeError(
      `${MOCK_URL_VARIABLE} is set, so ${ADMIN_TOKEN_VARIABLE} must be too: the admin token that mock was started with (--admin-token or ${ADMIN_TOKEN_VARIABLE})`,
    );
  return { url: `${origin}${BASE_PATH}`, origin, adminToken };
}

/** startMock's options for a mock a helper starts: the caller's, else the seed the environment gives. */
export function startOptionsFrom(
  options: TestScopeOptions,
  env: Environment = process.env,
): StartMockOptions {
  if (options.mock) return options.mock;
  const raw = env[SEED_VARIABLE];
  if (raw === undefined || raw === '') return {};
  const seed = Number(raw);
  if (!/^\d{1,15}$/.test(raw.trim()) || !Number.isSafeInteger(seed))
    throw new TypeError(
      `${SEED_VARIABLE} must be a whole number of 0 or more (got "${raw.slice(0, 40)}")`,
    );
  return { seed };
}

/** A mock the helper started, as the runner hands it on, and how to end it. */
export async function startSharedMock(
  options: StartMockOptions,
): Promise<{ mock: SharedMock; close(): Promise<void> }> {
  const adminToken = options.adminToken ?? randomUUID();
  const running: RunningMock = await startMock({ ...options, adminToken });
  return {
    mock: { url: running.url, origin: running.origin, adminToken },
    close: () => running.close(),
  };
}

/** One fetch of `/examples.json` per mock and process, shared by every test's scope. */
const examplesByOrigin = new Map<string, Promise<Examples>>();

async function fetchExamples(origin: string): Promise<Examples> {
  const answer = await fetch(`${origin}${EXAMPLES_PATH}`);
  if (!answer.ok)
    throw new Error(
      `${origin}${EXAMPLES_PATH} answered ${answer.status}: is this a web-data mock of this package?`,
    );
  return (await answer.json()) as Examples;
}

function examplesOf(origin: string): Promise<Examples> {
  let examples = examplesByOrigin.get(origin);
  if (!examples) {
    examples = fetchExamples(origin);
    // A failed read is not kept: the next test asks again.
    examples.catch(() => examplesByOrigin.delete(origin));
    examplesByOrigin.set(origin, examples);
  }
  return examples;
}

/** A fresh scope of the mock for one test; the caller closes `qa` after the test. */
export async function openTestScope(
  mock: SharedMock,
  options: TestScopeOptions = {},
): Promise<TestScope> {
  // The examples first: a scope opened before a failed read would wait out its idle time.
  const examples = await examplesOf(mock.origin);
  const controls = qaControls({ origin: mock.origin, adminToken: mock.adminToken });
  const qa = await controls.scope(
    options.purpose === undefined ? {} : { purpose: options.purpose },
  );
  return { url: mock.url, origin: mock.origin, apiKey: qa.apiKey, qa, examples };
}

/**
 * Ends a test's scope after the test. A scope already gone (the test closed it, or it outlived
 * its idle time) is what closing wants: the mock's 404 for it is not an error of the test.
 */
export async function closeTestScope(scope: TestScope): Promise<void> {
  try {
    await scope.qa.close();
  } catch (error) {
    if (!(error instanceof QaControlError && error.status === 404)) throw error;
  }
}
