/**
 * @module admin/admin-token
 * Which admin tokens may guard controls on an interface other machines reach. On loopback any
 * token will do (`npm start -- --admin-token qa-token` is the README's QA example); on any other
 * bind (`--host 0.0.0.0`, the container) the controls are one guess away from anyone on the
 * network, so a token shorter than MIN_EXPOSED_TOKEN_LENGTH or one our docs show is refused before
 * the mock starts. `admin-token.test.ts` reads the docs and fails when they show a token this
 * list lacks.
 */
import { isLoopbackName } from '../../net/host-guard.js';

export const MIN_EXPOSED_TOKEN_LENGTH = 16;

/** Tokens shown in the README, docs/, the compose files and the CI scripts: known to everyone. */
export const DOCUMENTED_TOKENS: readonly string[] = [
  'qa-token',
  'change-me',
  'ci-token',
  'qa',
  'playwright-local-admin-token',
];

/** Why `token` may not guard controls on `host`, or undefined when it may. */
export function exposedTokenProblem(token: string, host: string): string | undefined {
  if (isLoopbackName(host)) return undefined;
  const where = `--host ${host} is reachable from other machines`;
  if (DOCUMENTED_TOKENS.includes(token))
    return `${where}, and this admin token is one our docs show (anyone can guess it): give --admin-token (or MOCK_ADMIN_TOKEN) a secret of at least ${MIN_EXPOSED_TOKEN_LENGTH} characters, e.g. $(openssl rand -hex 16)`;
  if (token.length < MIN_EXPOSED_TOKEN_LENGTH)
    return `${where}, and the admin token has ${token.length} characters: give --admin-token (or MOCK_ADMIN_TOKEN) at least ${MIN_EXPOSED_TOKEN_LENGTH}, e.g. $(openssl rand -hex 16)`;
  return undefined;
}
