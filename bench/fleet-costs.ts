/**
 * @module bench/fleet-costs
 * Two costs of issue 36's fleet principle, measured by hand (never a timed assertion in a test):
 *
 * - stubs: the p50 and p90 of `GET /products/{id}` on two instances sharing a real redis-server,
 *   with no stubs, then with 100 stubs of about 60 KB each on the same operation (none matching
 *   the request: the worst case for an index by operation). Target: p50 within 1.2x of no stubs.
 * - record edits: the time of a 60 KB `PUT /__mock/records/products/{id}` (a new id each time),
 *   the first ones against the last ones after N edits, in memory and on a fleet of two (each put
 *   on one instance, then one request on the other so it catches up). Target: flat.
 *
 * `npx tsx bench/fleet-costs.ts [--stub-requests 400] [--edits 300]`; prints a Markdown table.
 */
import { parseArgs } from 'node:util';
import { startMockServer, type RunningServer } from '../src/server/listen.js';
import { redisAvailable, TestRedis } from '../src/testing/redis-server.js';
import { DEMO, sharedDataset } from '../src/testing/mock-app.js';

const TOKEN = 'bench-admin-token-0123456789';
const BIG = 60_000;

const { values } = parseArgs({
  options: {
    'stub-requests': { type: 'string', default: '400' },
    edits: { type: 'string', default: '300' },
  },
});

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const ms = (n: number) => n.toFixed(2);

async function timed(run: () => Promise<Response>): Promise<number> {
  const t0 = performance.now();
  const res = await run();
  await res.arrayBuffer();
  if (res.status >= 400) throw new Error(`${res.url}: ${res.status}`);
  return performance.now() - t0;
}

async function instances(n: number, stateUrl?: string): Promise<RunningServer[]> {
  const prefix = `bench${process.pid}-${Math.random().toString(36).slice(2)}:`;
  const out: RunningServer[] = [];
  for (let i = 0; i < n; i += 1)
    out.push(
      await startMockServer({
        datasets: { production: sharedDataset() },
        adminToken: TOKEN,
        stateUrl,
        instanceId: `bench-${i}`,
        stateOptions: { prefix, commandTimeoutMs: 10_000 },
      }),
    );
  return out;
}

const admin = (server: RunningServer, path: string, method: string, body: unknown) =>
  fetch(`${server.origin}/__mock${path}`, {
    method,
    headers: { 'x-mock-admin-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const api = (server: RunningServer, path: string) =>
  fetch(`${server.url}${path}`, { headers: { 'x-api-key': DEMO.unlimited } });

async function productIds(server: RunningServer, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ids.length < n; offset += 50) {
    const res = await api(server, `/products?limit=50&offset=${offset}`);
    const page = ((await res.json()) as { data: { productId: string }[] }).data;
    if (page.length === 0) break;
    ids.push(...page.map((p) => p.productId));
  }
  return ids.slice(0, n);
}

/**
 * Two fleets of two on one Redis (their own prefixes), one with 100 stubs of 60 KB on the
 * operation, one with none, asked in turn request by request, so the machine's load falls on both
 * alike.
 */
async function stubCost(bare: RunningServer[], stubbed: RunningServer[], requests: number) {
  const ids = await productIds(bare[0], 101);
  const other = (i: number) => ids[1 + (i % (ids.length - 1))];
  const path = `/products/${encodeURIComponent(ids[0])}`;
  for (let i = 1; i <= 100; i += 1) {
    const res = await admin(stubbed[0], '/stubs', 'POST', {
      operationId: 'getProduct',
      match: { params: { product_id: other(i) } },
      patch: { title: 'x'.repeat(BIG) },
    });
    if (res.status !== 201) throw new Error(`stub ${i}: ${res.status} ${await res.text()}`);
  }
  const times = { bare: [] as number[], stubbed: [] as number[] };
  for (let i = 0; i < 20; i += 1) {
    await timed(() => api(bare[i % 2], path));
    await timed(() => api(stubbed[i % 2], path));
  }
  for (let i = 0; i < requests; i += 1) {
    times.bare.push(await timed(() => api(bare[i % 2], path)));
    times.stubbed.push(await timed(() => api(stubbed[i % 2], path)));
  }
  const summary = (xs: number[]) => ({ p50: quantile(xs, 0.5), p90: quantile(xs, 0.9) });
  return { bare: summary(times.bare), stubbed: summary(times.stubbed) };
}

async function editCost(servers: RunningServer[], edits: number) {
  const [id] = await productIds(servers[0], 1);
  const record = (await (await api(servers[0], `/products/${encodeURIComponent(id)}`)).json()) as {
    productId: string;
    title: string;
  };
  const times: number[] = [];
  for (let i = 0; i < edits; i += 1) {
    const newId = `BENCH${i}`;
    const body = { ...record, productId: newId, title: `${'t'.repeat(BIG)}${i}` };
    times.push(
      await timed(() =>
        admin(servers[i % servers.length], `/records/products/${newId}`, 'PUT', body),
      ),
    );
    // The other instance catches up with the request after the edit.
    if (servers.length > 1) await timed(() => api(servers[(i + 1) % 2], `/products/${newId}`));
  }
  const first = times.slice(0, 20);
  const last = times.slice(-20);
  return { first: quantile(first, 0.5), last: quantile(last, 0.5) };
}

async function main() {
  const stubRequests = Number(values['stub-requests']);
  const edits = Number(values.edits);
  const lines = ['| measurement | before | after | ratio |', '|---|---|---|---|'];
  const memory = await instances(1);
  const inMemory = await editCost(memory, edits);
  await Promise.all(memory.map((s) => s.close()));
  lines.push(
    `| 60 KB record PUT in memory, p50 of the first 20 vs the last 20 of ${edits} (ms) | ${ms(inMemory.first)} | ${ms(inMemory.last)} | ${(inMemory.last / inMemory.first).toFixed(2)} |`,
  );
  if (redisAvailable()) {
    const redis = await TestRedis.start();
    try {
      const bare = await instances(2, redis.url);
      const stubbed = await instances(2, redis.url);
      const stubs = await stubCost(bare, stubbed, stubRequests);
      await Promise.all([...bare, ...stubbed].map((s) => s.close()));
      lines.push(
        `| GET /products/{id} on a fleet of 2, p50 no stubs vs 100 stubs of 60 KB (ms) | ${ms(stubs.bare.p50)} | ${ms(stubs.stubbed.p50)} | ${(stubs.stubbed.p50 / stubs.bare.p50).toFixed(2)} |`,
        `| the same, p90 (ms) | ${ms(stubs.bare.p90)} | ${ms(stubs.stubbed.p90)} | ${(stubs.stubbed.p90 / stubs.bare.p90).toFixed(2)} |`,
      );
      const edited = await instances(2, redis.url);
      const onFleet = await editCost(edited, edits);
      await Promise.all(edited.map((s) => s.close()));
      lines.push(
        `| 60 KB record PUT on a fleet of 2, p50 of the first 20 vs the last 20 of ${edits} (ms) | ${ms(onFleet.first)} | ${ms(onFleet.last)} | ${(onFleet.last / onFleet.first).toFixed(2)} |`,
      );
    } finally {
      await redis.stop();
    }
  } else lines.push('| (redis-server not installed: the fleet rows are skipped) | | | |');
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
