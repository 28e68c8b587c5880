/**
 * @module support/allowlist
 * Accepted undeclared fields: the `CONTRACT_ALLOWLIST` file, a JSON or YAML list of pointer
 * patterns (`/data/*\/newField`; `*` one segment, `**` any number), matched by the shared `allowlistOf`.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { allowlistOf, type Allowlist } from '../../contract/index.js';

export type { Allowlist };

/** Reads `CONTRACT_ALLOWLIST`: a list of strings, or `{ allow: [...] }`. No path: nothing allowed. */
export function loadAllowlist(path: string | undefined): Allowlist {
  if (!path) return () => false;
  const parsed: unknown = parseYaml(readFileSync(path, 'utf8'));
  const list = Array.isArray(parsed) ? parsed : (parsed as { allow?: unknown } | null)?.allow;
  if (!Array.isArray(list) || list.some((p) => typeof p !== 'string' || !p.startsWith('/'))) {
    throw new Error(
      `CONTRACT_ALLOWLIST ${path}: expected a list of JSON pointer patterns such as "/data/*/newField"`,
    );
  }
  return allowlistOf(list as string[]);
}
