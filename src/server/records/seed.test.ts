/**
 * @module records/seed.test
 * `--records FILE`: a file that cannot be used stops the mock with exit 2, naming the file, the
 * JSON pointer and the rule (never the file's text); a good YAML file is served.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/cli.js';
import { EXIT_USAGE, exitCodeFor } from '../../usage.js';
import type { RunningServer } from '../listen.js';
import { MAX_RECORDS_FILE_BYTES } from './seed.js';

/** The command as installed (it runs dist/: build it first, as `npm test` does). */
const BIN = fileURLToPath(new URL('../../../bin/web-data-mock.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'records-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const running: RunningServer[] = [];
afterAll(() => Promise.all(running.map((r) => r.close())));

async function refusal(path: string): Promise<string> {
  const error = await main(['--records', path, '--port', '0', '--host', '127.0.0.1'], {}).then(
    (server) => {
      if (server) running.push(server);
      throw new Error(`--records ${path} was accepted`);
    },
    (e: unknown) => e as Error,
  );
  expect(exitCodeFor(error)).toBe(EXIT_USAGE);
  return error.message;
}

describe('--records FILE', () => {
  it('refuses a record breaking the document, naming the file, the pointer and the rule', async () => {
    const path = file(
      'bad.json',
      '{"productParts":[{"orderableId":"X1","leadCount":"many"}],"gizmos":[]}',
    );
    const message = await refusal(path);
    expect(message).toContain(
      `--records ${path}: "/productParts/0/leadCount" type: integer (reference)`,
    );
    expect(message).toContain(`--records ${path}: "/gizmos" unknown family`);
  });

  it('the installed command exits 2 with the file, the pointer and the rule on stderr', () => {
    const path = file('bad-bin.json', '{"packages":[{"packageCode":"P","specifications":4}]}');
    const ran = spawnSync(process.execPath, [BIN, '--records', path, '--port', '0'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(ran.status).toBe(EXIT_USAGE);
    expect(ran.stderr).toContain(`--records ${path}: "/packages/0/specifications" type: object`);
  });

  it('refuses what is not a regular, bounded JSON or YAML file of { family: [records] }', async () => {
    expect(await refusal(dir)).toBe(`--records ${dir}: not a regular file`);
    expect(await refusal(join(dir, 'missing.json'))).toContain('cannot be read (ENOENT)');
    const huge = file('huge.yaml', '');
    truncateSync(huge, MAX_RECORDS_FILE_BYTES + 1);
    expect(await refusal(huge)).toContain(`bound is ${MAX_RECORDS_FILE_BYTES} bytes`);
    const yaml = file('broken.yaml', 'products: [ {productId: secret-text');
    const broken = await refusal(yaml);
    expect(broken).toMatch(/not valid YAML or JSON \(at line \d+, column \d+\)/);
    expect(broken).not.toContain('secret-text');
    expect(await refusal(file('list.yaml', '- a\n- b\n'))).toContain('"" type: object');
    expect(await refusal(file('notlist.yaml', 'products: {}\n'))).toContain(
      '"/products" type: array',
    );
  });

  it('serves the records of a good YAML file', async () => {
    const path = file(
      'good.yaml',
      'packages:\n  - packageCode: PKG-FROM-FILE\n    title: From a file\n',
    );
    const server = (await main(['--records', path, '--port', '0', '--host', '127.0.0.1'], {}))!;
    running.push(server);
    const port = (server.server.address() as { port: number }).port;
    const res = await fetch(`http://127.0.0.1:${port}/web-data/v1/packages/PKG-FROM-FILE`, {
      headers: { 'x-api-key': 'demo-production-key' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { title: string }).title).toBe('From a file');
  });
});
