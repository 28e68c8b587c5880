/**
 * @module testing/expected-output
 * Output a test provokes on purpose kept off the terminal, and only that: a line matching what the
 * test expects is kept (for the test to assert on), any other passes through as before, so a real
 * failure's message still shows. A green run should print no stack trace of a test that expects
 * a failure (issue 37). Two shapes: `expectConsole` for `console.*` calls inside one test (the
 * mock's `[mock]` lines, a library's `console.error(error)`), `quietly` for what a call writes
 * straight to `process.stdout` (the mock command's banner), which vitest does not capture.
 */
import { format } from 'node:util';
import { onTestFinished, vi } from 'vitest';

type ConsoleMethod = 'error' | 'warn' | 'log' | 'info';

/**
 * Keeps `console[method]` calls whose text matches `expected` for the rest of the current test
 * (call it inside a test); returns their texts in order. Other calls print as before.
 */
export function expectConsole(method: ConsoleMethod, expected: RegExp): string[] {
  const seen: string[] = [];
  const original = console[method].bind(console);
  const spy = vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
    const text = format(...args);
    if (expected.test(text)) seen.push(text);
    else original(...args);
  });
  onTestFinished(() => spy.mockRestore());
  return seen;
}

/** The mock command's banner (`src/server/cli/cli.ts`), written in one piece when it is ready. */
export const MOCK_BANNER = /^Web Data API mock \(release [^)]*\) ready in \d+ ms\n/;

/**
 * Runs `fn` with its writes to `process.stdout` that match `expected` (by default the mock's
 * banner) kept from the terminal and handed to `onKept`; any other write passes through.
 */
export async function quietly<T>(
  fn: () => Promise<T>,
  expected: RegExp = MOCK_BANNER,
  onKept: (text: string) => void = () => {},
): Promise<T> {
  const original = process.stdout.write.bind(process.stdout);
  const spy = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
      if (!expected.test(text)) return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
      onKept(text);
      return true;
    });
  try {
    return await fn();
  } finally {
    spy.mockRestore();
  }
}
