/**
 * @module meta/workflows.test
 * Our user journeys as Arazzo workflows (contract-tests/workflows/), run with Redocly Respect
 * against a real mock, as a team that monitors the vendor with Respect would run them against
 * staging (`--server webData=<base-url>`). Inputs come from the running mock: a list page whose
 * part has no `#` (Respect does not percent-encode path parameters) and a competitor number whose
 * first match is such a part.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningServer } from '../../src/server/listen.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORKFLOWS = 'contract-tests/workflows/web-data.arazzo.yaml';
const KEY = 'demo-unlimited-key';
/** Parts scanned for one without `#`, competitor numbers tried for a match on such a part. */
const SCAN = 100;

let mock: RunningServer;

beforeAll(async () => {
  mock = await startMockServer({ apiVersion: 'unreleased', validateResponses: false });
});

afterAll(async () => {
  await mock?.close();
});

async function api(path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${mock.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as Record<string, unknown>;
}

/** The page (at one part per page) of the first part whose identifier needs no encoding. */
async function plainPartPage(): Promise<number> {
  const { data } = (await api(`/product-parts?limit=${SCAN}`)) as {
    data: { orderableId: string }[];
  };
  const page = data.findIndex((p) => !p.orderableId.includes('#'));
  if (page < 0) throw new Error(`no part without # among the first ${SCAN}`);
  return page;
}

/** A competitor number from the mock's examples whose first match is a part without `#`. */
async function plainMatchNumber(): Promise<string> {
  const examples = (await (await fetch(new URL('/examples.json', mock.url))).json()) as {
    crossReference: { partNumbers: string[] };
  };
  const { data } = (await api('/product-parts/cross-reference', {
    partNumbers: examples.crossReference.partNumbers,
  })) as { data: { partNumber: string; results: { orderableId?: string }[] }[] };
  const entry = data.find(
    (e) => e.results[0]?.orderableId && !e.results[0].orderableId.includes('#'),
  );
  if (!entry) throw new Error('no example competitor number matches a part without #');
  return entry.partNumber;
}

function respect(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [`${ROOT}/node_modules/@redocly/cli/bin/cli.js`, 'respect', WORKFLOWS, ...args],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          NO_COLOR: '1',
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        },
      },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('Arazzo workflows (redocly respect)', () => {
  it('every journey passes against the mock: list then get for every family, search, cross-reference then the part', async () => {
    const inputs = [
      '--input',
      `apiKey=${KEY}`,
      '--input',
      `partsPage=${await plainPartPage()}`,
      '--input',
      `partNumber=${await plainMatchNumber()}`,
    ];
    const { code, output } = await respect(['--server', `webData=${mock.url}`, ...inputs]);
    expect(output, output).toMatch(/Workflows: 10 passed, 10 total/);
    expect(code).toBe(0);
  }, 120_000);

  it('fails when a journey breaks (a part that does not exist)', async () => {
    const { code, output } = await respect([
      '--server',
      `webData=${mock.url}`,
      '--workflow',
      'cross-reference-then-part',
      '--input',
      `apiKey=${KEY}`,
      '--input',
      'partNumber=NO-SUCH-COMPETITOR-PART',
    ]);
    expect(output).toMatch(/Workflows: 1 failed, 1 total/);
    expect(code).not.toBe(0);
  }, 120_000);
});
