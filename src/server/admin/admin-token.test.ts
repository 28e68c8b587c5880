/**
 * The admin-token rule for a bind other machines reach, and its list of documented tokens kept
 * true: every token the README, docs/, the compose files or the CI scripts show is on it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOCUMENTED_TOKENS, exposedTokenProblem } from './admin-token.js';

const ROOT = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

/** Every token a text shows after --admin-token, MOCK_ADMIN_TOKEN, the header or adminToken. */
function tokensShown(text: string): string[] {
  const shown =
    /(?:--admin-token[ =]+|MOCK_ADMIN_TOKEN(?:[=:]| \?\?=) *|x-mock-admin-token: *|adminToken: *)['"]?([A-Za-z0-9._~+-]+)(\$\{)?/g;
  // A token a CI template completes (`ci-${{ github.run_id }}`) is made per run, not shown.
  return [...text.matchAll(shown)]
    .filter((m) => m[2] === undefined)
    .map((m) => m[1])
    .filter((t) => !/^\.+$|^options$|^process\.env\./.test(t));
}

describe('admin tokens on a bind other machines reach', () => {
  it('takes any token on loopback names', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.3.2.1'])
      expect(exposedTokenProblem('qa-token', host)).toBeUndefined();
  });

  it('refuses a short token or a documented one elsewhere, saying why', () => {
    expect(exposedTokenProblem('a', '0.0.0.0')).toMatch(/--host 0.0.0.0 .* has 1 characters/);
    expect(exposedTokenProblem('change-me', '::')).toMatch(/one our docs show/);
    expect(exposedTokenProblem('0123456789abcdef', '0.0.0.0')).toBeUndefined();
  });

  it('lists every token the docs, compose files and CI scripts show', () => {
    const files = [
      'README.md',
      'docker-compose.yml',
      ...readdirSync(new URL('docs/', ROOT)).map((f) => `docs/${f}`),
      ...readdirSync(new URL('scripts/', ROOT)).map((f) => `scripts/${f}`),
    ].filter((f) => /\.(md|ya?ml|sh)$/.test(f));
    const shown = new Set(files.flatMap((f) => tokensShown(read(f))));
    expect(shown.size).toBeGreaterThan(0);
    for (const token of shown)
      if (!token.startsWith('$')) expect(DOCUMENTED_TOKENS, token).toContain(token);
  });
});
