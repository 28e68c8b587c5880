/**
 * @module support/allowlist
 * Accepted undeclared fields: a JSON or YAML list of pointer patterns (`/data/*\/newField`), where
 * `*` matches one segment and `**` any number of segments.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

export type Allowlist = (pointer: string) => boolean;

function compile(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .map((segment) => (segment === '**' ? '.*' : segment === '*' ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}$`);
}

/** An allowlist from patterns. */
export function allowlistOf(patterns: readonly string[]): Allowlist {
  const compiled = patterns.map(compile);
  return (pointer) => compiled.some((re) => re.test(pointer));
}

/** Reads `CONTRACT_ALLOWLIST`: a list of strings, or `{ allow: [...] }`. No path: nothing allowed. */
export function loadAllowlist(path: string | undefined): Allowlist {
  if (!path) return () => false;
  const parsed: unknown = parseYaml(readFileSync(path, 'utf8'));
  const list = Array.isArray(parsed) ? parsed : (parsed as { allow?: unknown } | null)?.allow;
  if (!Array.isArray(list) || list.some((p) => typeof p !== 'string' || !p.startsWith('/'))) {
    throw new Error(`CONTRACT_ALLOWLIST ${path}: expected a list of JSON pointer patterns such as "/data/*/newField"`);
  }
  return allowlistOf(list as string[]);
}
