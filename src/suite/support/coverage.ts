/**
 * @module support/coverage
 * The coverage table printed at the end of every run: operations x declared statuses, each cell
 * exercised by a real request, only through `Prefer` (the mock), or not at all and why.
 */
import type { CellState, CoverageCell } from '../../api/types.js';
import type { Contract } from '../../contract/index.js';
import type { ContractOptions } from './options.js';
import type { ExerciseNote } from './check.js';

// Public: the report's shape is defined in api/types.ts.
export type { CellState, CoverageCell };

/** Why a declared status was not produced by a natural request, in words a reader can act on. */
export function reasonFor(
  status: string,
  options: Pick<ContractOptions, 'target' | 'provokeRateLimit' | 'restrictedApiKey' | 'usePrefer'>,
): string {
  const live = options.target === 'live';
  switch (status) {
    case '429':
      return live && !options.provokeRateLimit
        ? '429 not provoked on a live target (CONTRACT_PROVOKE_RATE_LIMIT=1 to try)'
        : '429 provoked on one operation only (quota spent once per run)';
    case '500':
      return live
        ? '500 is a server failure; not provoked on a live target'
        : '500 only via Prefer on the mock';
    case '413':
      return 'oversized bodies not sent (the size limit is not documented)';
    case '403':
      return options.restrictedApiKey
        ? 'the restricted key lacks no scope this operation needs'
        : 'no restricted key given (CONTRACT_RESTRICTED_API_KEY)';
    case '404':
      return 'no unknown identifier sent for this operation';
    case '400':
      return 'no malformed input generated for this operation';
    default:
      return 'no request produced this status';
  }
}

export function coverageCells(
  contract: Contract,
  notes: readonly ExerciseNote[],
  options: Parameters<typeof reasonFor>[1],
): CoverageCell[] {
  const cells: CoverageCell[] = [];
  for (const op of contract.operations) {
    for (const status of op.responses.keys()) {
      const hits = notes.filter(
        (n) => n.operationId === op.operationId && String(n.status) === status,
      );
      const state: CellState = hits.some((n) => !n.preferred)
        ? 'exercised'
        : hits.length > 0
          ? 'prefer'
          : 'missed';
      cells.push({
        operationId: op.operationId,
        status,
        state,
        reason: state === 'exercised' ? undefined : reasonFor(status, options),
      });
    }
  }
  return cells;
}

const MARK: Record<CellState, string> = { exercised: 'yes', prefer: 'Prefer', missed: 'no' };

/** The table as Markdown: one row per operation, one column per status, reasons as footnotes. */
export function coverageMarkdown(cells: readonly CoverageCell[]): string {
  const statuses = [...new Set(cells.map((c) => c.status))].sort();
  const ops = [...new Set(cells.map((c) => c.operationId))];
  const reasons: string[] = [];
  const lines = [
    `| operation | ${statuses.join(' | ')} |`,
    `|---|${statuses.map(() => '---').join('|')}|`,
  ];
  for (const op of ops) {
    const row = statuses.map((s) => {
      const cell = cells.find((c) => c.operationId === op && c.status === s);
      if (!cell) return '-';
      if (!cell.reason) return MARK[cell.state];
      let n = reasons.indexOf(cell.reason);
      if (n < 0) n = reasons.push(cell.reason) - 1;
      return `${MARK[cell.state]} [${n + 1}]`;
    });
    lines.push(`| ${op} | ${row.join(' | ')} |`);
  }
  lines.push(
    '',
    'yes: a real request got this status; Prefer: only when asked with `Prefer: code=NNN`; no: not exercised; -: not declared.',
  );
  reasons.forEach((r, i) => lines.push(`[${i + 1}] ${r}`));
  return lines.join('\n');
}
