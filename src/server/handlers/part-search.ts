/**
 * @module handlers/part-search
 * The semantics of a parametric search filter (`POST /product-parts/search`): which filters make
 * sense for an attribute, and whether a part's values satisfy one. `values` is an OR-list, `range`
 * is inclusive on `min` and `max` (either may be left open), numbers compare with every operator,
 * strings (case-insensitively) and booleans only with `eq`. A yes/no attribute takes booleans and
 * strings: the reference's own example filter is `values: ["Yes", "Available"]`, so "Yes"/"No" (any
 * letter case) stand for true/false and any other string matches no part (DECISIONS 83).
 */
import type { components } from '../../contract/types.gen.js';
import type { InputProblem } from '../../contract/index.js';
import type { AttributeSearchRule } from '../../dataset/dataset.js';

type S = components['schemas'];
export type SearchFilter = S['SearchFilter'];
type Operator = S['SearchOperator'];
type Scalar = string | number | boolean;

/** A filter with its operator defaulted (`eq`), as it is applied and echoed. */
export type AppliedFilter = SearchFilter & { operator: Operator };

export const DEFAULT_OPERATOR: Operator = 'eq';

export function applied(filter: SearchFilter): AppliedFilter {
  return { ...filter, operator: filter.operator ?? DEFAULT_OPERATOR };
}

/**
 * Problems with one filter against the attribute it names (undefined: no such attribute): the
 * operator must suit the attribute's type, `range` needs `min` or `max` (min <= max), the other
 * operators at least one value, and every bound and value must have the attribute's type.
 */
export function filterProblems(
  filter: AppliedFilter,
  at: number,
  rule: AttributeSearchRule | undefined,
): InputProblem[] {
  const pointer = (field: string) => `/filters/${at}/${field}`;
  const problem = (
    field: string,
    ruleText: string,
    message: string,
    received: unknown,
  ): InputProblem[] => [{ in: 'body', name: pointer(field), rule: ruleText, message, received }];
  const id = filter.productPartAttributeId;
  if (!rule)
    return problem(
      'productPartAttributeId',
      'a productPartAttributeId of GET /product-parts/attributes',
      `unknown attribute "${id}"`,
      id,
    );
  if (!rule.operators.includes(filter.operator)) {
    return problem(
      'operator',
      `operators for ${rule.valueType} attributes: ${rule.operators.join(', ')}`,
      `operator "${filter.operator}" does not apply to attribute "${id}"`,
      filter.operator,
    );
  }
  if (filter.operator === 'range') {
    if (filter.min === undefined && filter.max === undefined)
      return problem(
        'min',
        'range takes min and/or max',
        'a range filter needs min or max',
        filter.values ?? null,
      );
    if (filter.min !== undefined && filter.max !== undefined && filter.min > filter.max)
      return problem('min', 'min <= max', 'range minimum exceeds maximum', [
        filter.min,
        filter.max,
      ]);
    return [];
  }
  const values = filter.values ?? [];
  if (values.length === 0)
    return problem(
      'values',
      `${filter.operator} takes values (at least one; any may match)`,
      `a ${filter.operator} filter needs values`,
      filter.values ?? null,
    );
  const yesNo = rule.valueType === 'boolean';
  const wrong = values.findIndex(
    (v) => typeof v !== rule.valueType && !(yesNo && typeof v === 'string'),
  );
  if (wrong >= 0)
    return problem(
      `values/${wrong}`,
      yesNo ? 'type: boolean or string ("Yes", "No")' : `type: ${rule.valueType}`,
      yesNo
        ? `attribute "${id}" is yes/no: it takes true, false, "Yes" or "No"`
        : `attribute "${id}" takes ${rule.valueType} values`,
      values[wrong],
    );
  return [];
}

/** The words a yes/no filter value may use for a flag (any letter case). */
const YES_NO: Record<string, boolean> = { yes: true, no: false };

function equal(a: Scalar, b: Scalar): boolean {
  if (typeof a === 'boolean' && typeof b === 'string') return YES_NO[b.toLowerCase()] === a;
  return typeof a === 'string' && typeof b === 'string'
    ? a.toLowerCase() === b.toLowerCase()
    : a === b;
}

const COMPARE: Record<Exclude<Operator, 'eq' | 'range'>, (v: number, target: number) => boolean> = {
  gt: (v, t) => v > t,
  gte: (v, t) => v >= t,
  lt: (v, t) => v < t,
  lte: (v, t) => v <= t,
};

/** Whether one of a part's values for the attribute satisfies the (checked) filter. */
export function satisfies(partValues: readonly unknown[], filter: AppliedFilter): boolean {
  return partValues.some((v) => {
    if (filter.operator === 'eq')
      return (filter.values ?? []).some(
        (t) =>
          (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && equal(v, t),
      );
    if (typeof v !== 'number') return false;
    if (filter.operator === 'range')
      return (
        (filter.min === undefined || v >= filter.min) &&
        (filter.max === undefined || v <= filter.max)
      );
    const compare = COMPARE[filter.operator];
    return (filter.values ?? []).some((t) => typeof t === 'number' && compare(v, t));
  });
}
