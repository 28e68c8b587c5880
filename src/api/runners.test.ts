/**
 * @module api/runners.test
 * The runner helpers from dist/ (npm run build) in a user's project that links this package and
 * the repository's vitest: one mock for a vitest run, handed to every file and closed after it;
 * one per worker without the global set-up; one per node:test process, closed when its tests are
 * done; and each runnable recipe of docs/testing.md, read from the page.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-root.js';
import {
  cleanEnvironment,
  runRecipe,
  testingRecipes,
  testsPassed,
  type StepRun,
} from '../testing/recipes.js';
import { freePort } from '../testing/free-port.js';

let project: string;

/** A project whose node_modules links the package (its dist/ and bins) and vitest. */
function linkedProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'web-data-runners-'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'runner-user', private: true, type: 'module' }),
  );
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  symlinkSync(PACKAGE_ROOT, join(modules, 'web-data-api-double'));
  symlinkSync(join(PACKAGE_ROOT, 'node_modules', 'vitest'), join(modules, 'vitest'));
  symlinkSync('../vitest/vitest.mjs', join(modules, '.bin', 'vitest'));
  for (const bin of ['web-data-mock', 'web-data-contract'])
    symlinkSync(`../web-data-api-double/bin/${bin}.js`, join(modules, '.bin', bin));
  return dir;
}

/** Runs one shell step list in a folder of the project with the files given. */
async function runIn(folder: string, files: Record<string, string>, steps: string[]) {
  const recipe = { name: folder, files: new Map(Object.entries(files)), steps, from: undefined };
  return runRecipe(recipe, new Map(), join(project, folder), {
    port: await freePort(),
    env: cleanEnvironment(),
  });
}

const outputOf = (runs: StepRun[]) => runs.map((r) => r.output).join('\n');

beforeAll(() => {
  project = linkedProject();
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

/** A test file that prints the origin of the mock its worker was handed. */
const PRINTS_ITS_MOCK = `import { expect, test as base } from 'vitest';
import { useWebDataMock } from 'web-data-api-double/vitest';
const test = base.extend(useWebDataMock());
test('the mock answers', async ({ webDataMock }) => {
  expect((await fetch(webDataMock.origin + '/healthz')).status).toBe(200);
  console.log('MOCK ' + webDataMock.origin + ' ' + (webDataMock.adminToken.length > 0));
});
`;

const originsIn = (output: string) => [...output.matchAll(/MOCK (\S+) true/g)].map((m) => m[1]);

describe('web-data-api-double/vitest', () => {
  it('the global set-up starts one mock for the run, hands it to every file and closes it', async () => {
    const runs = await runIn(
      'global',
      {
        'vitest.config.js': `export default { test: { globalSetup: ['web-data-api-double/vitest/global-setup'] } };`,
        'one.test.js': PRINTS_ITS_MOCK,
        'two.test.js': PRINTS_ITS_MOCK,
      },
      ['npx vitest run'],
    );
    const origins = originsIn(outputOf(runs));
    expect(origins).toHaveLength(2);
    expect(new Set(origins).size).toBe(1);
    await expect(fetch(`${origins[0]}/healthz`)).rejects.toThrow();
  });

  it('without it, a worker starts a mock of its own (MOCK_SEED read) and closes it', async () => {
    const runs = await runIn('per-worker', { 'one.test.js': PRINTS_ITS_MOCK }, [
      'MOCK_SEED=5 npx vitest run',
    ]);
    const [origin] = originsIn(outputOf(runs));
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(fetch(`${origin}/healthz`)).rejects.toThrow();
  });
});

/** A test file whose tests check that each scope ends with its test, closed by it or not. */
const SCOPES_END = `import { expect, test as base } from 'vitest';
import { useWebDataMock } from 'web-data-api-double/vitest';
const test = base.extend(useWebDataMock());
const keys = [];
test('a scope the test closes itself', async ({ webData }) => {
  keys.push(webData.apiKey);
  await webData.qa.close();
});
test('a scope left to the helper', async ({ webData }) => {
  keys.push(webData.apiKey);
});
test('both keys ended with their tests', async ({ webData }) => {
  expect(new Set([...keys, webData.apiKey]).size).toBe(3);
  for (const key of keys) {
    const answer = await fetch(webData.url + '/products?limit=1', { headers: { 'x-api-key': key } });
    expect(answer.status).toBe(401);
  }
  const mine = await fetch(webData.url + '/products?limit=1', { headers: { 'x-api-key': webData.apiKey } });
  expect(mine.status).toBe(200);
});
`;

describe("each test's scope", () => {
  it('ends with its test, and a scope the test closed itself is no error', async () => {
    const runs = await runIn('scopes-end', { 'scopes.test.js': SCOPES_END }, ['npx vitest run']);
    expect(testsPassed(runs)).toBe(3);
  });
});

describe('web-data-api-double/node-test', () => {
  it("a process's own mock, started on first use, is closed when the file's tests are done", async () => {
    const file = `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { webDataMock } from 'web-data-api-double/node-test';
test('one', async () => {
  const mock = await webDataMock();
  assert.equal((await fetch(mock.origin + '/healthz')).status, 200);
  console.log('MOCK ' + mock.origin + ' true');
});
test('two', async () => {
  assert.equal((await webDataMock()).origin, (await webDataMock()).origin);
});
`;
    const started = Date.now();
    const runs = await runIn('node-own', { 'own.test.js': file }, ['node --test']);
    // The process ends once its tests are: the mock does not hold it open.
    expect(Date.now() - started).toBeLessThan(20_000);
    const [origin] = originsIn(outputOf(runs));
    await expect(fetch(`${origin}/healthz`)).rejects.toThrow();
  });
});

describe('the recipes of docs/testing.md, from dist/', () => {
  const recipes = testingRecipes(PACKAGE_ROOT);
  it.each([...recipes.keys()])('%s runs as the page shows it', async (name) => {
    const runs = await runRecipe(recipes.get(name)!, recipes, join(project, `recipe-${name}`), {
      port: await freePort(),
      env: cleanEnvironment({ MOCK_ADMIN_TOKEN: 'recipes-admin-token' }),
    });
    expect(runs.every((r) => r.status === 0)).toBe(true);
    // Each recipe holds two tests (the vitest-global two files of one).
    expect(testsPassed(runs)).toBe(2);
  });
});
