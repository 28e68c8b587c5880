/**
 * @module api/vitest
 * `web-data-api-double/vitest`: the mock for vitest users. `webDataGlobalSetup()` (default export
 * of `web-data-api-double/vitest/global-setup`) starts one mock for the whole run and hands it to
 * every test file through `provide`/`inject`; `useWebDataMock()` gives `test.extend` a worker
 * fixture (that mock, or one the worker starts itself when no global set-up ran) and a test fixture
 * (`webData`: the URL, a scope's key and its QA controls, closed after the test). The one module of
 * the package that imports vitest (an optional peer dependency): nothing else imports it.
 */
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import {
  checkedScopeOptions,
  closeTestScope,
  openTestScope,
  sharedMockFromEnv,
  startOptionsFrom,
  startSharedMock,
} from './runner-mock.js';
import type { SharedMock, StartMockOptions, TestScope, TestScopeOptions } from './types.js';

export type { SharedMock, TestScope, TestScopeOptions } from './types.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The mock `web-data-api-double/vitest/global-setup` started (or found) for the whole run. */
    webDataMock?: SharedMock;
  }
}

/** The fixtures `useWebDataMock` adds: one mock per run (or worker), and a scope of it per test. */
export interface WebDataFixtures {
  /** Each test's own scope: `url`, `apiKey`, `qa` (closed after the test), `examples`. */
  webData: TestScope;
  /** The mock every test of the worker shares (the global set-up's, else one of the worker's own). */
  webDataMock: SharedMock;
}

type Use<T> = (value: T) => Promise<void>;

/**
 * What `useWebDataMock` returns, in the shape `test.extend` takes. TypeScript cannot infer the
 * fixtures' types through vitest's overloads from a worker fixture's tuple: name them,
 * `test.extend<WebDataFixtures>(useWebDataMock())`.
 */
export interface WebDataFixtureDefinitions {
  webDataMock: [(context: object, use: Use<SharedMock>) => Promise<void>, { scope: 'worker' }];
  webData: (context: { webDataMock: SharedMock }, use: Use<TestScope>) => Promise<void>;
}

/**
 * A global set-up for vitest's `globalSetup`: starts one mock for the run (`options`, else
 * `MOCK_SEED` from the environment), or uses the running one `WEB_DATA_MOCK_URL` names, and
 * provides it to every test file; the returned teardown closes a mock it started.
 */
export function webDataGlobalSetup(
  options?: StartMockOptions,
): (project: TestProject) => Promise<(() => Promise<void>) | undefined> {
  return async (project) => {
    const named = sharedMockFromEnv();
    if (named) {
      project.provide('webDataMock', named);
      return undefined;
    }
    const started = await startSharedMock(startOptionsFrom({ mock: options }));
    project.provide('webDataMock', started.mock);
    return () => started.close();
  };
}

/**
 * Fixtures for `test.extend`: `webData` gives each test a fresh scope of the shared mock (its own
 * key; stubs, faults, record edits and the clock seen by requests with that key alone), closed
 * after the test. Without the global set-up (and no `WEB_DATA_MOCK_URL`), each worker starts a mock
 * of its own (`options.mock`, else `MOCK_SEED`) and closes it when the worker ends.
 */
export function useWebDataMock(options?: TestScopeOptions): WebDataFixtureDefinitions {
  const checked = checkedScopeOptions('useWebDataMock', options);
  return {
    webDataMock: [
      // vitest reads a fixture's dependencies from its first parameter: it must be a pattern.
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const provided = inject('webDataMock') ?? sharedMockFromEnv();
        if (provided) return use(provided);
        const started = await startSharedMock(startOptionsFrom(checked));
        try {
          await use(started.mock);
        } finally {
          await started.close();
        }
      },
      { scope: 'worker' },
    ],
    webData: async ({ webDataMock }, use) => {
      const scope = await openTestScope(webDataMock, checked);
      try {
        await use(scope);
      } finally {
        await closeTestScope(scope);
      }
    },
  };
}
