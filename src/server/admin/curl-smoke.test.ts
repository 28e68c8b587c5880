/**
 * @module admin/curl-smoke.test
 * The per-test controls as someone with curl and a container uses them: scripts/qa-controls-smoke.sh
 * (the same script scripts/ci-container.sh runs against the image) against the mock's command on a
 * free port, with an admin token from the environment as the image passes it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../package-root.js';

const BIN = join(PACKAGE_ROOT, 'bin', 'web-data-mock.js');
const SCRIPT = join(PACKAGE_ROOT, 'scripts', 'qa-controls-smoke.sh');

const mock = spawn(process.execPath, [BIN, '--port', '0', '--host', '127.0.0.1'], {
  env: { ...process.env, MOCK_ADMIN_TOKEN: 'smoke-token', NO_COLOR: '1' },
});
afterAll(() => void mock.kill('SIGTERM'));

function origin(): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    mock.on('exit', (code) => reject(new Error(`the mock exited ${code}: ${output}`)));
    mock.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      const url = /production\s+(http:\/\/\S+?)\/web-data\/v1/.exec(output)?.[1];
      if (url) resolve(url);
    });
  });
}

describe('the admin API with curl', () => {
  // curl is required, as by readme.test (.ci/run installs it): a missing one fails, never skips.
  it('stub, refusal, page-2 fault, verify, record edit and reset answer as docs/qa.md says', async () => {
    const ran = spawnSync('bash', [SCRIPT, await origin(), 'smoke-token'], { encoding: 'utf8' });
    expect(ran.stderr).toBe('');
    expect(ran.status).toBe(0);
    expect(ran.stdout).toContain('answered as documented');
  });
});
