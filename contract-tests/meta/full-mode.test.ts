/**
 * @module meta/full-mode.test
 * The full contract against any of our mocks: a mock the user started (here with `--records`, a
 * valid file of their own) is found by its `/examples.json`, and `web-data-contract <its URL>`
 * runs every check it runs against the bundled mock (`Prefer` errors, cross-reference matching,
 * the examples' identifiers): the report's kind is `mock` and it passes. A server whose
 * `/examples.json` is not a web-data mock's stays a live target.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ContractReport } from '../../src/suite/support/report.js';
import { mockTarget } from '../../src/suite/support/mock-target.js';
import { compiledMock, DEMO_KEYS, REPOSITORY, runNode } from './harness.js';

const RUN_MS = 240_000;
const dir = mkdtempSync(join(tmpdir(), 'full-mode-'));
const mocks: ChildProcess[] = [];
afterAll(() => {
  for (const mock of mocks) mock.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('web-data-contract against a mock the user started', () => {
  it(
    'with --records: found as a web-data mock, every check runs, and it passes',
    async () => {
      const records = join(dir, 'records.json');
      writeFileSync(records, JSON.stringify({ packages: [] }));
      const url = await compiledMock(['--records', records, '--seed', '5'], mocks);
      expect(await mockTarget(url)).toMatchObject({ seed: 5 });
      const reports = join(dir, 'reports');
      const ran = await runNode(
        [join(REPOSITORY, 'bin', 'web-data-contract.js'), url, '--report-dir', reports],
        DEMO_KEYS,
      );
      const report = JSON.parse(
        readFileSync(join(reports, 'contract-report.json'), 'utf8'),
      ) as ContractReport;
      expect(ran.code, ran.output.slice(-3000)).toBe(0);
      expect(report.kind).toBe('mock');
      expect(report.passed).toBe(true);
      expect(ran.output).toMatch(/a web-data mock, every check of the bundled mock/);
      const summary = readFileSync(join(reports, 'contract-summary.md'), 'utf8');
      // Prefer errors ran: no "mock only" test was skipped.
      expect(summary).not.toMatch(/Prefer\\, mock only/);
    },
    RUN_MS,
  );

  it('a server whose /examples.json is something else is a live target', async () => {
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/examples.json' ? '{"release":"1.0.0"}' : '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await mockTarget(`http://127.0.0.1:${port}/web-data/v1`)).toBeUndefined();
    } finally {
      server.close();
    }
  });
});
