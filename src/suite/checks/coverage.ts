/**
 * @module checks/coverage
 * Every operation in the document is exercised: each family (operation tag) has its
 * `<family>.contract.test.ts`, and each operation answers a real request with a success. A new
 * operation in the document that no request reaches, or a new family without a test file, fails.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Check } from '../support/context.js';
import { checkEveryOperation } from './operations.js';

// The family files stay in contract-tests/, beside the suite's vitest config.
const SUITE_DIR = fileURLToPath(new URL('../../../contract-tests/', import.meta.url));
// .ts in the repository, .js in the compiled package.
const FAMILY_FILE = /^(.+)\.contract\.test\.[jt]s$/;

/** Families that have a test file of their own in the suite. */
export function familiesWithTests(dir = SUITE_DIR): Set<string> {
  return new Set(
    readdirSync(dir)
      .map((f) => FAMILY_FILE.exec(f)?.[1])
      .filter((f): f is string => f !== undefined),
  );
}

export const checkOperationCoverage: Check = async (ctx, scope) => {
  const before = ctx.notes.length;
  const findings = await checkEveryOperation(ctx, scope);
  const notes = ctx.notes.slice(before);
  const families = familiesWithTests();
  for (const op of ctx.contract.operations) {
    const base = {
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      url: `${ctx.client.baseUrl}${op.path}`,
      rule: 'coverage',
      severity: 'failure' as const,
    };
    if (!families.has(op.family)) {
      findings.push({
        ...base,
        expected: `contract-tests/${op.family}.contract.test.ts`,
        message: `family "${op.family}" of ${op.operationId} has no test file`,
      });
    }
    if (
      !notes.some(
        (n) =>
          n.operationId === op.operationId && n.status >= 200 && n.status < 300 && !n.preferred,
      )
    ) {
      findings.push({
        ...base,
        expected: 'at least one request answered with a success',
        actual: JSON.stringify(
          notes.filter((n) => n.operationId === op.operationId).map((n) => n.status),
        ),
        message: `${op.operationId} was never exercised successfully`,
      });
    }
  }
  return findings;
};
