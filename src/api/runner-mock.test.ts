/**
 * @module api/runner-mock.test
 * The runner helpers' reading of the environment (which running mock, what seed) and options, and
 * the recipes of docs/testing.md as src/testing/recipes.ts reads them.
 */
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-root.js';
import { testingRecipes } from '../testing/recipes.js';
import { checkedScopeOptions, sharedMockFromEnv, startOptionsFrom } from './runner-mock.js';

describe('the running mock the environment names', () => {
  it('is none without WEB_DATA_MOCK_URL', () => {
    expect(sharedMockFromEnv({})).toBeUndefined();
    expect(sharedMockFromEnv({ WEB_DATA_MOCK_URL: '', MOCK_ADMIN_TOKEN: 't' })).toBeUndefined();
  });

  it('is its origin and base URL, whether the variable names the origin or the API', () => {
    for (const given of ['http://127.0.0.1:4010/web-data/v1', 'http://127.0.0.1:4010'])
      expect(sharedMockFromEnv({ WEB_DATA_MOCK_URL: given, MOCK_ADMIN_TOKEN: 'token' })).toEqual({
        url: 'http://127.0.0.1:4010/web-data/v1',
        origin: 'http://127.0.0.1:4010',
        adminToken: 'token',
      });
  });

  it('needs its admin token, and says which variable, without echoing a token', () => {
    expect(() => sharedMockFromEnv({ WEB_DATA_MOCK_URL: 'http://127.0.0.1:4010' })).toThrow(
      /WEB_DATA_MOCK_URL is set, so MOCK_ADMIN_TOKEN must be too/,
    );
  });

  it('refuses what is not an http(s) URL, naming the variable', () => {
    for (const given of ['127.0.0.1:4010', 'ftp://host/web-data/v1', 'not a url'])
      expect(() => sharedMockFromEnv({ WEB_DATA_MOCK_URL: given, MOCK_ADMIN_TOKEN: 't' })).toThrow(
        /^WEB_DATA_MOCK_URL must be the http\(s\) URL of a running mock/,
      );
  });
});

describe('the options of a mock a helper starts', () => {
  it("are the caller's, else MOCK_SEED, else startMock's defaults", () => {
    expect(startOptionsFrom({ mock: { seed: 3 } }, { MOCK_SEED: '9' })).toEqual({ seed: 3 });
    expect(startOptionsFrom({}, { MOCK_SEED: '9' })).toEqual({ seed: 9 });
    expect(startOptionsFrom({}, {})).toEqual({});
  });

  it('refuse a MOCK_SEED that is not a whole number, naming it', () => {
    for (const raw of ['-1', '1.5', 'seven', '1e3', '99999999999999999999'])
      expect(() => startOptionsFrom({}, { MOCK_SEED: raw }), raw).toThrow(
        /^MOCK_SEED must be a whole number of 0 or more/,
      );
  });

  it('refuse an unknown option, naming the nearest', () => {
    expect(() => checkedScopeOptions('useWebDataMock', { purpos: 'rateLimited' } as never)).toThrow(
      /useWebDataMock: unknown option "purpos" \(did you mean "purpose"\?\)/,
    );
    expect(checkedScopeOptions('webDataScope', undefined)).toEqual({});
  });
});

describe('the recipes of docs/testing.md', () => {
  const recipes = testingRecipes(PACKAGE_ROOT);

  it('are the four the package checks, each with its files and steps', () => {
    expect([...recipes.keys()]).toEqual([
      'vitest-fixture',
      'vitest-global',
      'node-test',
      'ci-detach',
    ]);
    expect([...recipes.get('vitest-global')!.files.keys()]).toEqual([
      'vitest.config.js',
      'a.test.js',
    ]);
    expect(recipes.get('node-test')!.steps).toEqual(['node --test']);
    const ci = recipes.get('ci-detach')!;
    expect(ci.from).toBe('node-test');
    expect(ci.steps).toHaveLength(3);
    expect(ci.steps[0]).toMatch(/web-data-mock --detach --port 4010\)" >> "\$GITHUB_ENV"$/);
    expect(ci.steps[2]).toBe('npx web-data-mock stop --port 4010');
  });
});
