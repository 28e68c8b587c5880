/**
 * @module api/mock.test
 * The library's handle keeps what its types promise: `qa` is there without an admin token (the
 * library sets a random one), and every demo key is a string; with a keys file that lacks a
 * purpose, reading that purpose throws, naming it, instead of handing out `undefined`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMockApp } from '../index.js';

describe('the library handle', () => {
  it('has working QA controls without an admin token, behind a token no one else knows', async () => {
    const mock = await createMockApp();
    await mock.qa.armFault({ operationId: 'listPackages', status: 500 });
    const hit = await mock.fetch(
      new Request(`${mock.url}/packages?limit=1`, {
        headers: { 'x-api-key': mock.keys.fullAccess },
      }),
    );
    expect(hit.status).toBe(500);
    await hit.text();
    const guessed = await mock.fetch(
      new Request(`${mock.origin}/__mock/scenarios`, { headers: { 'x-mock-admin-token': '' } }),
    );
    expect(guessed.status).toBe(401);
    await guessed.text();
  });

  it('gives every demo key as a string; a purpose the keys file lacks throws, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mock-keys-'));
    const keysFile = join(dir, 'keys.json');
    writeFileSync(
      keysFile,
      JSON.stringify({
        keys: [
          {
            name: 'only',
            secret: 'only-key-0123456789',
            demo: true,
            environment: 'production',
            scopes: [
              'products',
              'product-parts',
              'documents',
              'boards-kits',
              'packages',
              'software-tools',
            ],
            tier: 'standard',
          },
        ],
      }),
    );
    const mock = await createMockApp({ keysFile });
    expect(mock.keys.fullAccess).toBe('only-key-0123456789');
    expect(() => mock.keys.expired).toThrow(/keys\.expired: the keys file has no demo key/);
    expect(Object.keys(mock.keys)).not.toContain('expired');
    expect(JSON.parse(JSON.stringify(mock.keys))).toEqual(
      Object.fromEntries(Object.keys(mock.keys).map((purpose) => [purpose, 'only-key-0123456789'])),
    );
  });
});
