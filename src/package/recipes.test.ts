/**
 * Every runnable recipe of docs/testing.md, read from the installed package's own copy of the page
 * and run as the page shows it in the shared installed project (src/package/global-setup.ts):
 * the vitest fixture, one mock for a vitest run with a scope per test, node:test, and
 * `web-data-mock --detach` then `stop` across shell steps of their own (src/testing/recipes.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnvironment, runRecipe, testingRecipes, testsPassed } from '../testing/recipes.js';
import { freePort } from '../testing/free-port.js';
import { installedProject, MINUTES } from './installed-project.js';

const { project } = installedProject();
const recipes = testingRecipes(join(project, 'node_modules', 'web-data-api-double'));

describe('the recipes of docs/testing.md, in the installed package', () => {
  it('are the four the issue names', () => {
    expect([...recipes.keys()].sort()).toEqual(
      ['ci-detach', 'node-test', 'vitest-fixture', 'vitest-global'].sort(),
    );
  });

  it.each([...recipes.keys()])(
    '%s runs as the page shows it',
    async (name) => {
      // A folder of the project without a package.json of its own: npx finds the project's bins.
      const runs = await runRecipe(recipes.get(name)!, recipes, join(project, 'recipes', name), {
        port: await freePort(),
        env: cleanEnvironment({ MOCK_ADMIN_TOKEN: 'recipes-admin-token' }),
      });
      expect(runs.map((run) => run.status)).toEqual(runs.map(() => 0));
      // Each recipe holds two tests (the vitest-global two files of one).
      expect(testsPassed(runs)).toBe(2);
    },
    5 * MINUTES,
  );
});
