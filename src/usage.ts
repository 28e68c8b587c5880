/**
 * @module usage
 * The one usage error of every command (the mock, the proxy, the contract suite): something the
 * user gave (a flag, a variable, a file named by a flag) is wrong, and the message says which and
 * why. Each command exits 2 for it and 1 for anything else; `exitCodeFor` is that mapping.
 */

/** The user's input is wrong; the message names the flag, variable or file and the rule. */
export class UsageError extends Error {
  override name = 'UsageError';
}

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
