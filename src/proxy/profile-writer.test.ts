/**
 * @module proxy/profile-writer.test
 * `--profile FILE` over real HTTP: a stand-in live service behind the proxy; the profile is
 * written while the proxy runs (periodically, only when something changed) and once more when it
 * closes, always whole (temporary file renamed, none left behind), readable as a profile, with
 * the operations forwarded, and never the key nor a personal-looking value of an undeclared field.
 */
import { Hono } from 'hono';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../contract/index.js';
import { readProfile } from '../evidence/profile.js';
import { startProxy, type RunningProxy } from './listen.js';
import { logSink, serveApp, type Served } from './testdata/servers.js';

const KEY = 'live-Key-7731-zzzzzzzzzzzz';
const INTERVAL_MS = 50;

let live: Served;
let proxy: RunningProxy;
let dir: string;
let file: string;
const sink = logSink();

beforeAll(async () => {
  const app = new Hono();
  app.get(`${BASE_PATH}/packages`, (c) =>
    c.json({
      data: Array.from({ length: 3 }, (_, i) => ({
        packageCode: `P${i}`,
        title: `you sent ${c.req.header('x-api-key')}`,
        contactEmail: `person${i}@example.com`,
      })),
      pagination: { offset: 0, limit: 10, total: 3, has_more: false },
    }),
  );
  app.get(`${BASE_PATH}/packages/:id`, (c) => c.json({ error: 'not found' }, 404));
  live = await serveApp(app);
  dir = mkdtempSync(join(tmpdir(), 'proxy-profile-'));
  file = join(dir, 'nested', 'profile.json');
  proxy = await startProxy({
    upstream: live.url,
    apiKey: KEY,
    log: sink.log,
    profileFile: file,
    profileIntervalMs: INTERVAL_MS,
  });
});

afterAll(async () => {
  await live?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const until = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, INTERVAL_MS));
};

describe('proxy --profile', () => {
  it('writes the profile while running and on close, atomically, without the key or personal values', async () => {
    const list = await fetch(`${proxy.url}/packages?limit=10`);
    expect(list.status).toBe(200);
    await list.arrayBuffer();
    await until(() => existsSync(file));
    const running = readProfile(file);
    expect(running.operations.listPackages.statuses).toEqual({ '200': 1 });
    // Nothing new: no rewrite at the next ticks.
    const written = statSync(file).mtimeMs;
    await new Promise((r) => setTimeout(r, INTERVAL_MS * 4));
    expect(statSync(file).mtimeMs).toBe(written);

    const missing = await fetch(`${proxy.url}/packages/NOPE`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    await proxy.close();
    const final = readProfile(file);
    expect(final.operations.getPackage.errorShapes).toEqual({ '404': { error: 1 } });
    expect(final.operations.listPackages.bodies['200'].locations['/data/*/contactEmail'].open).toBe(
      true,
    );
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('@example.com');
    expect(readdirSync(join(dir, 'nested'))).toEqual(['profile.json']);
  });
});
