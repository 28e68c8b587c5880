/**
 * @module net/deadline.test
 * `withDeadline` in a process of its own, as a command's top-level await uses it: an awaited call
 * that holds no handle of its own (a fetch whose socket is gone) still ends with the deadline's
 * `TimeoutError` and the command's own exit status, where `AbortSignal.timeout` lets Node end the
 * process with exit 13 first. Also: the value passes through and the timer is cleared.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { withDeadline } from './deadline.js';

const DEADLINE = fileURLToPath(new URL('./deadline.ts', import.meta.url));

/** A promise that settles only when `signal` aborts, holding nothing open meanwhile. */
const NEVER_BUT_ABORTABLE = `(signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))`;

/** A module run with top-level await, as the commands are; its exit status and output. */
function command(body: string) {
  const ran = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', body], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: ran.status, stdout: ran.stdout.trim(), stderr: ran.stderr };
}

describe('withDeadline', () => {
  it('ends an awaited call that holds nothing open with TimeoutError, not exit 13', () => {
    const ran = command(
      `import { withDeadline } from ${JSON.stringify(DEADLINE)};
       try { await withDeadline(50, ${NEVER_BUT_ABORTABLE}); }
       catch (error) { console.log(error.name); process.exitCode = 3; }`,
    );
    expect(ran, ran.stderr).toMatchObject({ code: 3, stdout: 'TimeoutError' });
  });

  it('is needed: the same call under AbortSignal.timeout ends with exit 13', () => {
    const ran = command(
      `const call = ${NEVER_BUT_ABORTABLE};
       try { await call(AbortSignal.timeout(50)); }
       catch (error) { console.log(error.name); process.exitCode = 3; }`,
    );
    expect(ran.code).toBe(13);
  });

  it('passes the value through and clears its timer', async () => {
    const started = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    await expect(withDeadline(60_000, async () => 'answered')).resolves.toBe('answered');
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout')).toHaveLength(started);
  });
});
