/**
 * @module api/vitest.test
 * The runner helpers' types as a user's project meets them (this file type-checks with the rest:
 * `npm run typecheck`), and the fixture shape vitest reads. Running them against a mock is
 * src/api/runners.test.ts's part.
 */
import type { test as nodeTest } from 'node:test';
import { describe, expect, expectTypeOf, it, test as base } from 'vitest';
import type { webDataScope as WebDataScope } from './node-test.js';
import type { QaScope, SharedMock, TestScope } from './types.js';
import { useWebDataMock, type WebDataFixtures } from './vitest.js';

/** Type-checked, never called: a vitest user's file and a node:test user's file. */
export function typedUses(webDataScope: typeof WebDataScope, test: typeof nodeTest): void {
  const withMock = base.extend<WebDataFixtures>(useWebDataMock({ purpose: 'rateLimited' }));
  withMock('types', async ({ webData, webDataMock, task }) => {
    expectTypeOf(webData).toEqualTypeOf<TestScope>();
    expectTypeOf(webData.apiKey).toEqualTypeOf<string>();
    expectTypeOf(webData.qa).toEqualTypeOf<QaScope>();
    expectTypeOf(webDataMock).toEqualTypeOf<SharedMock>();
    expectTypeOf(task.name).toEqualTypeOf<string>();
    await webData.qa.advanceClock(1);
  });
  // @ts-expect-error no such purpose
  useWebDataMock({ purpose: 'everything' });
  void test('a node:test test', async (t) => {
    const scope: TestScope = await webDataScope(t, { mock: { seed: 2 } });
    await scope.qa.reset();
  });
}

describe('useWebDataMock', () => {
  it('gives test.extend a worker fixture for the mock and a test fixture for the scope', () => {
    const fixtures = useWebDataMock();
    expect(fixtures.webDataMock[1]).toEqual({ scope: 'worker' });
    expect(typeof fixtures.webDataMock[0]).toBe('function');
    // vitest reads a fixture's dependencies from its first parameter's pattern.
    expect(fixtures.webData.toString()).toMatch(/^async \(\{ webDataMock \}, use\)/);
    expect(fixtures.webDataMock[0].toString()).toMatch(/^async \(\{\}, use\)/);
    expectTypeOf<keyof WebDataFixtures>().toEqualTypeOf<'webData' | 'webDataMock'>();
  });

  it('refuses an unknown option before any test runs', () => {
    expect(() => useWebDataMock({ seed: 2 } as never)).toThrow(
      /^useWebDataMock: unknown option "seed"; known options: purpose, mock$/,
    );
  });
});
