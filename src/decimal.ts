/**
 * @module decimal
 * Reading a number a person typed: decimal digits only, as a flag, a variable or a `Prefer`
 * header spells it (src/usage.ts for the commands' flags, src/server/faults/actions.ts for QA
 * actions).
 */

const DECIMAL_INTEGER = /^-?\d+$/;

/**
 * The integer `text` spells in decimal digits (a leading `-` allowed), or undefined. `Number()`
 * alone reads `''` and `' '` as 0, takes `1e3`, `0x10`, `1.0` and `+5`, and rounds past 2^53.
 */
export function decimalInteger(text: string): number | undefined {
  if (!DECIMAL_INTEGER.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : undefined;
}
