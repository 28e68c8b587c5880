/**
 * @module testing/chromium
 * The browser tests' one way to find and start Debian's Chromium: its path ($CHROMIUM_PATH or
 * /usr/bin/chromium), the flags this machine's closed network needs (no background connections,
 * no component updates), and what a missing browser means: a warning and skipped tests, or a
 * failing test when CI_REQUIRE_CHROMIUM=1 (.ci/run installs Chromium and sets it).
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether Chromium is here. When it is not, says so once for `testFile` and, under
 * CI_REQUIRE_CHROMIUM=1, registers a test that fails.
 */
export function chromiumAvailable(testFile: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  console.warn(
    `\n!!! ${CHROMIUM} not found: the Chromium tests in ${testFile} are SKIPPED.\n!!! Install it (apt-get install -y --no-install-recommends chromium) or set CI_REQUIRE_CHROMIUM=1 to make this a failure.\n`,
  );
  describe.runIf(process.env.CI_REQUIRE_CHROMIUM === '1')('Chromium required', () => {
    it('is installed', () => {
      expect.fail(`${CHROMIUM} is missing and CI_REQUIRE_CHROMIUM=1`);
    });
  });
  return false;
}
