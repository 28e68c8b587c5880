/**
 * @module support/rollup
 * Findings grouped by cause, for a reader with ten seconds: one entry per severity and rule, the
 * operations it concerns with their counts (most first) and the first finding as its example.
 * Rule and operation names key `Map`s, never object properties, since a finding's fields may carry
 * what a server sent. Pure.
 */
import type { Cause } from '../../api/types.js';
import type { Finding } from './findings.js';
import { NOT_RUN } from './probe.js';

// Public: the report's shape is defined in api/types.ts.
export type { Cause };

/** Operations named per cause; the rest are counted. */
export const MAX_OPERATIONS_NAMED = 8;

/**
 * Failures first, then warnings; within each, the causes with the most findings first (the order
 * of the first finding breaks ties). Checks that could not run are not a cause: the reports list
 * them apart, with what and why.
 */
export function rollUp(findings: readonly Finding[]): Cause[] {
  const groups = new Map<string, { first: Finding; count: number; ops: Map<string, number> }>();
  for (const f of findings) {
    if (f.rule === NOT_RUN) continue;
    const key = `${f.severity}\u0000${f.rule}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { first: f, count: 0, ops: new Map() }));
    group.count++;
    group.ops.set(f.operationId, (group.ops.get(f.operationId) ?? 0) + 1);
  }
  const causes = [...groups.values()].map(({ first, count, ops }): Cause => {
    const operations = [...ops]
      .map(([operationId, n]) => ({ operationId, count: n }))
      .sort((a, b) => b.count - a.count);
    return {
      severity: first.severity,
      rule: first.rule,
      count,
      operations: operations.slice(0, MAX_OPERATIONS_NAMED),
      moreOperations: Math.max(0, operations.length - MAX_OPERATIONS_NAMED),
      first,
    };
  });
  const rank = (c: Cause) => (c.severity === 'failure' ? 0 : 1);
  // Array.prototype.sort is stable: equal causes keep the order of their first findings.
  return causes.sort((a, b) => rank(a) - rank(b) || b.count - a.count);
}
