/**
 * @module architecture-doc.test
 * The map is the territory: docs/architecture.md names every folder under src/ (as `src/a/b/`),
 * and every `src/...` path it names exists, a folder where it ends with `/`, a file where it has an
 * extension. A folder added, moved or removed without the map fails here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packagePath } from './package-root.js';

const DOC = packagePath('docs', 'architecture.md');
// Test data travels with the tests that read it; it is not a part of the architecture.
const NOT_A_ROOM = new Set(['testdata']);

function foldersUnder(dir: string, rel: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || NOT_A_ROOM.has(entry.name)) continue;
    const path = `${rel}/${entry.name}`;
    found.push(path, ...foldersUnder(join(dir, entry.name), path));
  }
  return found;
}

/** Every `src/...` path the page names, as written (a trailing `/` kept). */
function pathsNamed(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w./-])src\/[\w./-]*[\w/]/g)].map((m) => m[0]))];
}

describe('docs/architecture.md', () => {
  const text = readFileSync(DOC, 'utf8');
  const named = pathsNamed(text);

  it('names every folder under src/', () => {
    const folders = foldersUnder(packagePath('src'), 'src');
    const missing = folders.filter((folder) => !named.some((p) => p === `${folder}/`));
    expect(missing, 'folders the map leaves out (name each as `src/a/b/`)').toEqual([]);
  });

  it('names no folder or file that does not exist', () => {
    const absent = named.filter((p) => {
      const full = packagePath(...p.replace(/\/$/, '').split('/'));
      if (!existsSync(full)) return true;
      const isDir = statSync(full).isDirectory();
      return p.endsWith('/') ? !isDir : /\.[a-z]+$/.test(p) && isDir;
    });
    expect(absent, 'paths the map names that are not in the tree').toEqual([]);
  });
});
