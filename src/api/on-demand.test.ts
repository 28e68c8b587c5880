/**
 * @module on-demand.test
 * Importing the package root loads the mock and nothing else: the contract suite (vitest), the
 * proxy, the evidence layer and Redis (ioredis) load only when their functions are called, `/docs`
 * (and yaml) on its first request; those
 * functions keep the signatures of the ones they stand for.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type * as Suite from '../suite/run.js';
import type * as Proxy from '../proxy/index.js';
import * as onDemand from './on-demand.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * A module loader hook that prints every URL the process loads, one a line. It writes to fd 2
 * synchronously: the hooks run on their own thread, whose `process.stderr` is forwarded to the
 * main thread and could lose its last lines when the process exits (1 run in 8 on Node 24).
 */
const HOOKS = `import { writeSync } from 'node:fs'; export async function load(url, context, next) { writeSync(2, 'LOADED ' + url + '\\n'); return next(url, context); }`;
const REGISTER = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});`;

/** Every URL a fresh Node process loads to import the package root (through tsx). */
function loadedByImport(): string[] {
  const result = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--import',
      `data:text/javascript,${encodeURIComponent(REGISTER)}`,
      '--input-type=module',
      '-e',
      "await import('./src/index.ts');",
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  expect(result.status, result.stderr).toBe(0);
  return [...result.stderr.matchAll(/^LOADED (.+)$/gm)].map((m) => m[1]);
}

describe('the package root', () => {
  it('loads neither the suite, the proxy, the evidence layer, Redis nor /docs when imported', () => {
    const loaded = loadedByImport();
    // The hook sees the mock's own modules (else this test could not fail).
    expect(loaded.some((url) => url.includes('/src/server/app.ts'))).toBe(true);
    const heavy = loaded.filter((url) =>
      /\/src\/(suite|proxy|evidence|recordings)\/|\/src\/server\/docs-page\/docs\.ts$|\/node_modules\/(vitest|ioredis|@apidevtools|yaml)\//.test(
        url,
      ),
    );
    expect(heavy).toEqual([]);
  });

  it('keeps the signatures of the functions it loads on demand', () => {
    expectTypeOf(onDemand.runContract).toEqualTypeOf<typeof Suite.runContract>();
    expectTypeOf(onDemand.startProxy).toEqualTypeOf<typeof Proxy.startProxy>();
  });
});
