/**
 * @module support/demo-keys
 * The scopes of one of the demo keys the package ships (`config/keys.json`), read as a data file
 * of the package: the suite learns which families the restricted demo key lacks on a web-data mock
 * without importing the mock. Anything unexpected in the file reads as "not known".
 */
import { readBoundedJson } from '../../files/read-bounded.js';
import { packagePath } from '../../package-root.js';

const DEMO_KEYS_FILE = packagePath('config', 'keys.json');

/** The scopes of the demo key with this secret, or undefined when the file does not list it. */
export function demoKeyScopes(secret: string): string[] | undefined {
  const file = readBoundedJson(DEMO_KEYS_FILE) as { keys?: unknown };
  if (!Array.isArray(file.keys)) return undefined;
  for (const entry of file.keys as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { secret: s, scopes } = entry as { secret?: unknown; scopes?: unknown };
    if (s === secret && Array.isArray(scopes)) return scopes.filter((x) => typeof x === 'string');
  }
  return undefined;
}
