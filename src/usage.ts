/**
 * @module usage
 * The one usage error of every command (the mock, the proxy, the contract suite): something the
 * user gave (a flag, a variable, a file named by a flag) is wrong, and the message says which and
 * why. Each command exits 2 for it and 1 for anything else; `exitCodeFor` is that mapping. Only
 * the commands import this module (dependency-cruiser): a lower layer throws its own error
 * (ConfigFileError, RecordingsError, StateUnreachableError, PortTakenError), which the command
 * maps to a usage error with the same message.
 */
import { decimalInteger } from './decimal.js';

/** The user's input is wrong; the message names the flag, variable or file and the rule. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * How the mock's command is run from the repository (its npm script), as `--help` names it; the
 * package's bin names itself (`web-data-mock`).
 */
export const REPOSITORY_COMMAND = 'npm start --';

/** The exit status of a usage error (1 is any other failure). */
export const EXIT_USAGE = 2;

/** A usage error, or node's `parseArgs` refusing a flag (unknown, or missing its value). */
export function isUsageError(error: unknown): boolean {
  if (error instanceof UsageError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}

/** The exit status a command ends with after `error`: 2 for a usage error, else 1. */
export function exitCodeFor(error: unknown): 1 | typeof EXIT_USAGE {
  return isUsageError(error) ? EXIT_USAGE : 1;
}

/** The range a number a user typed must fall in; `exclusiveMin` makes `min` itself a mistake. */
export interface NumberRange {
  min: number;
  max?: number;
  exclusiveMin?: boolean;
}

/** A listen port: 0 asks the system for a free one. */
export const PORT_RANGE: NumberRange = { min: 0, max: 65535 };

const DECIMAL_NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;

/** The rule a range states, as a usage error says it: `an integer >= 1`, `a number from 0.1 to 3600`. */
function ruleOf(kind: 'an integer' | 'a number', range: NumberRange): string {
  if (range.max !== undefined) return `${kind} from ${range.min} to ${range.max}`;
  return `${kind} ${range.exclusiveMin ? '>' : '>='} ${range.min}`;
}

function inRange(n: number, range: NumberRange): boolean {
  const aboveMin = range.exclusiveMin ? n > range.min : n >= range.min;
  return aboveMin && (range.max === undefined || n <= range.max);
}

/**
 * A whole number a user gave for `field` (a flag such as `--port`, or a variable such as `PORT`):
 * decimal digits within `range`, or a usage error naming the field, the rule and the value.
 */
export function integerArgument(field: string, raw: string, range: NumberRange): number {
  const n = decimalInteger(raw);
  if (n === undefined || !inRange(n, range))
    throw new UsageError(`${field} must be ${ruleOf('an integer', range)} (got "${raw}")`);
  return n;
}

/** As `integerArgument`, for a value that may have a decimal fraction (`--scale 0.5`). */
export function numberArgument(field: string, raw: string, range: NumberRange): number {
  const n = DECIMAL_NUMBER.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(n) || !inRange(n, range))
    throw new UsageError(`${field} must be ${ruleOf('a number', range)} (got "${raw}")`);
  return n;
}
