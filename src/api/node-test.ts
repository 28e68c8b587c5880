/**
 * @module api/node-test
 * `web-data-api-double/node-test`: the mock for `node:test` users, on Node 20 too (which has no
 * `--test-global-setup`). `await webDataScope(t)` gives one test a fresh scope of a mock and closes
 * it after the test (`t.after`). The mock is the running one `WEB_DATA_MOCK_URL` and
 * `MOCK_ADMIN_TOKEN` name (a `web-data-mock --detach` step before `node --test`: one mock for every
 * test file), else one this process starts on first use and closes when its tests are done.
 */
import { after } from 'node:test';
import {
  checkedScopeOptions,
  closeTestScope,
  openTestScope,
  sharedMockFromEnv,
  startOptionsFrom,
  startSharedMock,
} from './runner-mock.js';
import type { SharedMock, TestScope, TestScopeOptions } from './types.js';

export type { SharedMock, TestScope, TestScopeOptions } from './types.js';

/** What `webDataScope` needs of node:test's test context (`t`): its `after` hook. */
export interface AfterHook {
  after(fn: () => Promise<void>): void;
}

let ownMock: Promise<{ mock: SharedMock; close(): Promise<void> }> | undefined;

// Registered when this module loads, at the top level of the test file that imports it: node:test
// then runs it after every test of the file. Registered later, inside a test, it would belong to
// that test and close the mock under the tests that follow.
after(async () => {
  const started = ownMock;
  ownMock = undefined;
  if (started) await (await started).close();
});

function processMock(options: TestScopeOptions): Promise<SharedMock> {
  const named = sharedMockFromEnv();
  if (named) return Promise.resolve(named);
  if (!ownMock) {
    ownMock = startSharedMock(startOptionsFrom(options));
    // A mock that failed to start is not kept: the next test tries again, and says why.
    ownMock.catch(() => (ownMock = undefined));
  }
  return ownMock.then((started) => started.mock);
}

/**
 * A fresh scope of the process's mock for the test `t` (its own key; stubs, faults, record edits
 * and the clock seen by requests with that key alone), closed after the test. `options.mock`
 * applies to a mock this process starts (the first call's options start it).
 */
export async function webDataScope(t: AfterHook, options?: TestScopeOptions): Promise<TestScope> {
  const checked = checkedScopeOptions('webDataScope', options);
  const scope = await openTestScope(await processMock(checked), checked);
  t.after(() => closeTestScope(scope));
  return scope;
}

/** The mock this process's tests share (the one named by the environment, or started here). */
export function webDataMock(options?: TestScopeOptions): Promise<SharedMock> {
  return processMock(checkedScopeOptions('webDataMock', options));
}
