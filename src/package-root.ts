/**
 * @module package-root
 * Where the package's data files (spec/, config/) live: the nearest directory above this module
 * that holds a package.json. The same module runs from src/ (tsx, in the repository) and from
 * dist/src/ (the compiled, installed package), one level deeper, so a fixed `../..` would point
 * into dist/ in one of the two; dist/ has no package.json of its own.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/** The package's root directory (the repository, or node_modules/web-data-api-double). */
export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path below the package root, e.g. `packagePath('spec', 'openapi.yaml')`. */
export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts);
}
