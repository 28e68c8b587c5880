/**
 * Two (or three) mock instances on one real redis-server behave as one service: limits, armed
 * faults, slots, bytes, the journal and the QA clock are shared; a crashed instance's slot frees
 * when its lease ends; Redis going away mid-run keeps the mock answering from local state and it
 * comes back to shared state; an unreachable Redis at start is a one-line usage error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningServer } from '../server/listen.js';
import type { ListenOptions } from '../server/listen.js';
import { DEMO, sharedDataset } from '../testing/mock-app.js';
import type { Tier } from '../server/config/tiers.js';
import { redactUrl } from './redis.js';
import { redisAvailable, TestRedis } from '../testing/redis-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'qa';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function eventually(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(25);
  }
}

let redis: TestRedis;
let prefixCounter = 0;
const running: RunningServer[] = [];

/** Instances on one Redis under a fresh prefix (each test starts from empty shared state). */
async function fleet(
  n: number,
  options: ListenOptions = {},
  tier: Partial<Tier> = {},
): Promise<RunningServer[]> {
  const prefix = `t${process.pid}-${++prefixCounter}:`;
  const out: RunningServer[] = [];
  for (let i = 0; i < n; i += 1) {
    const server = await startMockServer({
      datasets: { production: sharedDataset() },
      adminToken: TOKEN,
      stateUrl: redis.url,
      instanceId: `instance-${String.fromCharCode(97 + i)}`,
      tierOverride: tier,
      ...options,
      // Generous here: a loaded test machine must not turn a slow reply into a local decision
      // (the failover test stops Redis, which closes the connection at once).
      stateOptions: { prefix, commandTimeoutMs: 5000, ...options.stateOptions },
    });
    running.push(server);
    out.push(server);
  }
  return out;
}

function get(server: RunningServer, path: string, key: string = DEMO.unlimited, headers = {}) {
  return fetch(`${server.url}${path}`, { headers: { 'x-api-key': key, ...headers } });
}

async function admin(server: RunningServer, path: string, body?: unknown, method?: string) {
  const res = await fetch(`${server.origin}/__mock${path}`, {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { 'x-mock-admin-token': TOKEN, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('the state URL in messages', () => {
  it('never shows a password', () => {
    expect(redactUrl('redis://:s3cret@db.internal:6379/2')).toBe('redis://:***@db.internal:6379/2');
    expect(redactUrl('redis://user:s3cret@db.internal:6379')).toBe(
      'redis://user:***@db.internal:6379',
    );
    expect(redactUrl('redis://127.0.0.1:6379/0')).toBe('redis://127.0.0.1:6379/0');
    expect(redactUrl('not a url :s3cret@')).not.toContain('s3cret');
  });
});

const canRun = redisAvailable();

describe.skipIf(!canRun)('shared state on a real Redis', () => {
  beforeAll(async () => {
    redis = await TestRedis.start();
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("refuses the trial-tier key's 21st request in a minute on either instance, with matching Retry-After", async () => {
    const [a, b] = await fleet(2);
    for (let i = 0; i < 20; i += 1) {
      const res = await get(i % 2 ? b : a, '/packages?limit=1', DEMO.lowTier);
      expect(res.status, `request ${i + 1}`).toBe(200);
      await res.arrayBuffer();
    }
    const refusals = await Promise.all(
      [a, b].map((s) => get(s, '/packages?limit=1', DEMO.lowTier)),
    );
    const retry: number[] = [];
    for (const res of refusals) {
      expect(res.status).toBe(429);
      const body = (await res.json()) as { retry_after: number; error: string };
      expect(body.error).toContain('requests per minute');
      expect(res.headers.get('retry-after')).toBe(String(body.retry_after));
      retry.push(body.retry_after);
    }
    expect(retry[0]).toBeGreaterThan(50);
    expect(Math.abs(retry[0] - retry[1])).toBeLessThanOrEqual(1);
  });

  it('fires a fault armed for 3 requests exactly 3 times across both instances under 50 concurrent requests', async () => {
    const [a, b] = await fleet(2);
    expect((await admin(a, '/scenarios', { count: 3, status: 500 })).status).toBe(201);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await get(i % 2 ? b : a, '/packages?limit=1');
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 500)).toHaveLength(3);
    expect(statuses.filter((s) => s === 200)).toHaveLength(47);
    expect((await admin(b, '/scenarios')).body.armed).toEqual([]);
  });

  it('holds a concurrency limit of 1 across instances', async () => {
    const [a, b] = await fleet(2, {}, { concurrentConnections: 1 });
    const slow = get(a, '/packages?limit=1', DEMO.production, { prefer: 'delay=1500' });
    await eventually(
      async () => (await admin(b, '/rate-limits')).body['demo-production']?.inFlight === 1,
    );
    const refused = await get(b, '/packages?limit=1', DEMO.production);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toContain('concurrent connections');
    expect((await slow).status).toBe(200);
    await eventually(async () => {
      const res = await get(b, '/packages?limit=1', DEMO.production);
      await res.arrayBuffer();
      return res.status === 200;
    });
  });

  it('counts bytes charged on one instance on the other', async () => {
    const [a, b] = await fleet(2, {}, { bytesPerWindow: 1000 });
    const first = await get(a, '/packages?limit=1', DEMO.production);
    const length = (await first.arrayBuffer()).byteLength;
    expect(length).toBeGreaterThan(1000);
    await eventually(
      async () => (await admin(b, '/rate-limits')).body['demo-production']?.bytes === length,
    );
    const refused = await get(b, '/packages?limit=1', DEMO.production);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: string }).error).toContain('data transfer');
  });

  it('lists requests from both instances in one journal, each with the instance that answered', async () => {
    const [a, b] = await fleet(2);
    for (const server of [a, b, a]) await (await get(server, '/packages?limit=1')).arrayBuffer();
    await eventually(async () => (await admin(b, '/requests?limit=10')).body.requests.length >= 3);
    const { requests } = (await admin(b, '/requests?limit=10')).body as {
      requests: { instance: string; path: string; status: number }[];
    };
    const api = requests.filter((r) => r.path.startsWith('/web-data/'));
    expect(api.map((r) => r.instance)).toEqual(['instance-a', 'instance-b', 'instance-a']);
    expect(api.every((r) => r.status === 200)).toBe(true);
  });

  it('sees a clock advance made on one instance on the other', async () => {
    const [a, b] = await fleet(2);
    for (let i = 0; i < 20; i += 1)
      await (await get(a, '/packages?limit=1', DEMO.lowTier)).arrayBuffer();
    expect((await get(b, '/packages?limit=1', DEMO.lowTier)).status).toBe(429);
    expect((await admin(a, '/clock/advance', { seconds: 61 })).body.clockOffsetSeconds).toBe(61);
    expect((await get(b, '/packages?limit=1', DEMO.lowTier)).status).toBe(200);
    expect((await admin(b, '/config')).body.clockOffsetSeconds).toBe(61);
  });

  it("frees a killed instance's slot when its lease ends", async () => {
    const prefix = `kill-${process.pid}:`;
    const child = await startChild([
      '--state',
      redis.url,
      '--state-prefix',
      prefix,
      '--state-lease',
      '1',
      '--rate-limit',
      'concurrentConnections=1',
      '--instance-id',
      'doomed',
    ]);
    try {
      const [b] = await fleet(1, { stateOptions: { prefix } }, { concurrentConnections: 1 });
      // Holds the slot for 20 s: only the lease can free it once its instance is gone.
      const held = fetch(`${child.url}/packages?limit=1`, {
        headers: { 'x-api-key': DEMO.production, prefer: 'delay=20000' },
      }).catch(() => undefined);
      await eventually(
        async () => (await admin(b, '/rate-limits')).body['demo-production']?.inFlight === 1,
      );
      // Renewed while the instance lives: still held after two lease lengths.
      await sleep(2000);
      expect((await get(b, '/packages?limit=1', DEMO.production)).status).toBe(429);
      child.process.kill('SIGKILL');
      await held;
      const killedAt = Date.now();
      await eventually(async () => {
        const res = await get(b, '/packages?limit=1', DEMO.production);
        await res.arrayBuffer();
        return res.status === 200;
      }, 5000);
      expect(Date.now() - killedAt).toBeLessThan(3000);
    } finally {
      child.process.kill('SIGKILL');
    }
  }, 60_000);

  it('keeps answering from local state while Redis is away (said once in the log, and in a header), and goes back when it returns', async () => {
    const lines: string[] = [];
    const [a] = await fleet(1, {
      stateOptions: { reconnectMaxMs: 200, log: (line) => lines.push(line) },
    });
    const shared = await get(a, '/packages?limit=1');
    expect(shared.status).toBe(200);
    expect(shared.headers.get('x-mock-state')).toBeNull();
    await redis.stop();
    try {
      for (let i = 0; i < 5; i += 1) {
        const started = Date.now();
        const res = await get(a, '/packages?limit=1');
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        expect(res.headers.get('x-mock-state')).toBe('local');
        expect(Date.now() - started).toBeLessThan(1000);
      }
      const controls = await admin(a, '/requests?limit=5');
      expect(controls.status).toBe(200);
      expect(controls.headers.get('x-mock-state')).toBe('local');
      expect(lines.filter((l) => l.includes('unreachable'))).toHaveLength(1);
      expect(lines[0]).toContain(redis.url);
    } finally {
      await redis.resume();
    }
    await eventually(async () => {
      const res = await get(a, '/packages?limit=1');
      await res.arrayBuffer();
      return res.status === 200 && res.headers.get('x-mock-state') === null;
    }, 10_000);
    expect(lines.some((l) => l.includes('back to shared state'))).toBe(true);
  }, 30_000);

  it('runs --workers 2 on one port and one shared state; refuses --workers without --state', async () => {
    const prefix = `workers-${process.pid}:`;
    const cluster = await startChild([
      '--workers',
      '2',
      '--state',
      redis.url,
      '--state-prefix',
      prefix,
      '--admin-token',
      TOKEN,
    ]);
    try {
      const origin = new URL(cluster.url).origin;
      const instances = new Set<string>();
      await eventually(async () => {
        // New connections each time: the primary hands them out to the workers in turn. Two API
        // requests a round, since control calls are not journaled and take a turn each.
        for (let i = 0; i < 2; i++) {
          const res = await fetch(`${cluster.url}/packages?limit=1`, {
            headers: { 'x-api-key': DEMO.production, connection: 'close' },
          });
          await res.arrayBuffer();
          // Once the banner is out, no worker may still be starting (answering 503).
          expect(res.status).toBe(200);
        }
        const journal = await fetch(`${origin}/__mock/requests?limit=50`, {
          headers: { 'x-mock-admin-token': TOKEN, connection: 'close' },
        });
        expect(journal.status).toBe(200);
        for (const r of ((await journal.json()) as { requests: { instance: string }[] }).requests)
          instances.add(r.instance);
        return instances.size === 2;
      }, 20_000);
    } finally {
      cluster.process.kill('SIGTERM');
    }
    const refused = await runCli(['--workers', '2', '--port', '0']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--workers needs --state');
  }, 90_000);

  it('exits 2 with a one-line usage error naming the URL (password redacted) when Redis is unreachable at start', async () => {
    const url = `redis://:s3cret@127.0.0.1:${redis.port + 1}/0`;
    const { code, stderr } = await runCli(['--state', url, '--port', '0']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`redis://:***@127.0.0.1:${redis.port + 1}/0`);
    expect(stderr).not.toContain('s3cret');
  }, 60_000);
});

const CLI = ['--import', 'tsx', 'src/server/cli/cli.ts'];

function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...CLI, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

/** A mock instance in its own process (so it can be killed mid-request), once it listens. */
async function startChild(args: string[]): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...CLI, '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`mock did not start: ${out}`)), 45_000);
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /production\s+(http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('exit', (code) => reject(new Error(`mock exited with ${code}: ${out}`)));
  });
  return { process: child, url };
}
