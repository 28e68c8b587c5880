/**
 * @module bench/builds
 * The two ways the mock runs, compared by `npm run bench`: `tsx` (TypeScript through tsx's
 * loader, as `npm start` and the repository's tests run it) and `compiled` (the package's
 * JavaScript, as an installed package runs it: no loader at all). The compiled side of the bench's
 * own children (the mock child and what it imports) is built here with tsc, so neither the mock nor
 * the bench code around it goes through tsx on that side.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUILDS = ['tsx', 'compiled'] as const;
export type Build = (typeof BUILDS)[number];

const REPO = fileURLToPath(new URL('..', import.meta.url));
/** Where the compiled bench children go (no package.json there: the package root is still the repo). */
export const COMPILED_DIR = join(REPO, 'node_modules', '.cache', 'web-data-api-double', 'bench');

export function parseBuilds(raw: string): Build[] {
  const builds = raw.split(',').filter(Boolean);
  for (const b of builds)
    if (!(BUILDS as readonly string[]).includes(b))
      throw new Error(`--builds: "${b}" is not one of ${BUILDS.join(', ')}`);
  return builds as Build[];
}

/** Compiles the bench children and the package (tsconfig.build.json's settings) once per run. */
export function compileBench(): void {
  const tsc = join(
    dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
    'bin',
    'tsc',
  );
  execFileSync(process.execPath, [tsc, '-p', join(REPO, 'bench', 'tsconfig.compiled.json')], {
    cwd: REPO,
    stdio: 'inherit',
  });
  execFileSync(process.execPath, [tsc, '-p', join(REPO, 'tsconfig.build.json')], {
    cwd: REPO,
    stdio: 'inherit',
  });
}

/** The script to fork for a bench child (`./mock-child.ts`) and whether it needs tsx. */
export function childScript(script: string, build: Build): { path: string; tsx: boolean } {
  if (build === 'tsx') return { path: fileURLToPath(new URL(script, import.meta.url)), tsx: true };
  return { path: join(COMPILED_DIR, 'bench', script.replace(/\.ts$/, '.js')), tsx: false };
}
