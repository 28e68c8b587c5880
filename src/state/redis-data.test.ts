/**
 * Redis data is not a Redis outage, on a real redis-server: a bad database in `--state` is a
 * usage error before "ready" (and `/1` really uses database 1); a key of the wrong type or `nan`,
 * `inf` or text in a count under the prefix is repaired and counted while the instance stays on
 * shared state (no flapping to local); rate-limit headers and `retry_after` are non-negative
 * integers whatever Redis holds; no printed state URL carries a credential.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningServer } from '../server/listen.js';
import { DEMO, sharedDataset } from '../testing/mock-app.js';
import { redactUrl, StateUnreachableError } from './redis.js';
import { redisAvailable, TestRedis } from '../testing/redis-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'qa';

let redis: TestRedis;
let raw: Redis;
let counter = 0;
const running: RunningServer[] = [];

async function instance(
  stateUrl: string,
  lines: string[] = [],
): Promise<{ server: RunningServer; prefix: string }> {
  const prefix = `data${process.pid}-${++counter}:`;
  const server = await startMockServer({
    datasets: { production: sharedDataset() },
    adminToken: TOKEN,
    stateUrl,
    instanceId: 'instance-a',
    stateOptions: { prefix, commandTimeoutMs: 5000, log: (line) => lines.push(line) },
  });
  running.push(server);
  return { server, prefix };
}

const get = (server: RunningServer, key: string = DEMO.unlimited) =>
  fetch(`${server.url}/packages?limit=1`, { headers: { 'x-api-key': key } });

async function config(server: RunningServer) {
  const res = await fetch(`${server.origin}/__mock/config`, {
    headers: { 'x-mock-admin-token': TOKEN },
  });
  return (await res.json()) as { state: { store: string; local: boolean; repaired: number } };
}

/** The windows hash a request for `key` wrote under `prefix` (its name is the key's record name). */
async function windowsOf(prefix: string): Promise<string> {
  const [hash] = await raw.keys(`${prefix}limits:*`);
  return hash;
}

const runDescribe = redisAvailable() ? describe : describe.skip;

runDescribe('Redis data is not a Redis outage', () => {
  beforeAll(async () => {
    redis = await TestRedis.start();
    raw = new Redis(redis.url);
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.close()));
    raw?.disconnect();
    await redis?.stop();
  });

  it('refuses a database that is not a number before connecting, and one the server lacks before ready', async () => {
    const base = `redis://127.0.0.1:${redis.port}`;
    await expect(instance(`${base}/abc`)).rejects.toThrow(StateUnreachableError);
    await expect(instance(`${base}/abc`)).rejects.toThrow(/database must be a number.*"abc"/);
    await expect(instance(`${base}/99`)).rejects.toThrow(/database 99 cannot be selected/);
  });

  it('writes to the database it names', async () => {
    const { server, prefix } = await instance(`redis://127.0.0.1:${redis.port}/1`);
    await (await get(server)).arrayBuffer();
    expect(await raw.keys(`${prefix}*`)).toEqual([]);
    const db1 = new Redis(`redis://127.0.0.1:${redis.port}/1`);
    try {
      expect((await db1.keys(`${prefix}*`)).length).toBeGreaterThan(0);
    } finally {
      db1.disconnect();
    }
  });

  it('exits 2 with one line, and no "ready", on --state .../abc', async () => {
    const { code, stdout, stderr } = await runCli([
      '--state',
      `redis://127.0.0.1:${redis.port}/abc`,
      '--port',
      '0',
    ]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout).not.toContain('ready');
  }, 60_000);

  it('repairs keys of the wrong type under the prefix and stays on shared state', async () => {
    const lines: string[] = [];
    const { server, prefix } = await instance(redis.url, lines);
    await (await get(server)).arrayBuffer();
    const windows = await windowsOf(prefix);
    const slots = windows.replace(':limits:', ':slots:');
    await raw.del(windows, slots, `${prefix}clock-offset-ms`, `${prefix}journal`);
    await raw.set(windows, 'not a hash');
    await raw.rpush(slots, 'not a zset');
    await raw.hset(`${prefix}clock-offset-ms`, 'not', 'a string');
    await raw.set(`${prefix}journal`, 'not a list');
    for (let i = 0; i < 20; i += 1) {
      const res = await get(server);
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      expect(res.headers.get('x-mock-state')).toBeNull();
    }
    const requests = await fetch(`${server.origin}/__mock/requests?limit=5`, {
      headers: { 'x-mock-admin-token': TOKEN },
    });
    expect(requests.status).toBe(200);
    expect(requests.headers.get('x-mock-state')).toBeNull();
    const state = (await config(server)).state;
    expect(state.local).toBe(false);
    expect(state.repaired).toBeGreaterThanOrEqual(3);
    expect(lines.filter((l) => l.includes('unreachable'))).toEqual([]);
    expect(await raw.type(windows)).toBe('hash');
  });

  it('answers non-negative integers for nan, inf and text in a limits hash', async () => {
    const { server, prefix } = await instance(redis.url);
    await (await get(server, DEMO.lowTier)).arrayBuffer();
    const windows = await windowsOf(prefix);
    const statuses: number[] = [];
    for (const spoiled of [
      { mu: 'nan', hu: 'inf', ms: 'nan', hs: '-inf', tu: 'text' },
      { mu: '1e300', ms: 'nan' },
      { mu: '-5', hu: '-inf', ms: '1e30' },
    ]) {
      await raw.hset(windows, spoiled);
      const res = await get(server, DEMO.lowTier);
      const body = (await res.json()) as { retry_after?: number };
      statuses.push(res.status);
      expect(res.headers.get('x-mock-state')).toBeNull();
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'retry-after']) {
        const value = res.headers.get(name);
        if (value !== null) expect(value, `${name}: ${value}`).toMatch(/^\d+$/);
      }
      if (res.status === 429) {
        expect(Number.isInteger(body.retry_after)).toBe(true);
        expect(body.retry_after).toBeGreaterThanOrEqual(1);
      }
    }
    // 1e300 requests this minute: refused, with a window that starts now (its start was nan).
    expect(statuses).toEqual([200, 429, 200]);
    expect((await config(server)).state.repaired).toBeGreaterThan(0);
  });

  it('never prints a credential of the state URL: password, ?password=, ?token=', async () => {
    expect(redactUrl('redis://u:s3cret@h:6379/0?password=s3cret&token=s3cret&db=0')).toBe(
      'redis://u:***@h:6379/0?password=***&token=***&db=0',
    );
    const { server } = await instance(`${redis.url}?token=s3cret-token`);
    const shown = JSON.stringify(await config(server));
    expect(shown).not.toContain('s3cret');
    expect(shown).toContain('token=***');
  });
});

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli/cli.ts', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
