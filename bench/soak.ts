/**
 * @module bench/soak
 * Memory under abuse, run by hand: `npx tsx bench/soak.ts [--requests 1000000] [--flood 200000]
 * [--idle 1000]`. The mock runs in its own process with `--expose-gc`; after each phase the soak
 * asks it for RSS and for heap-after-full-GC. Phases: a flood of never-seen keys (valid-looking
 * and junk; the rate limiter must keep no state for them), many idle keep-alive connections held
 * open, then a long soak of the list page (autocannon `amount`). Writes bench/results/soak.{md,json}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Child, mib, type MemoryStats } from './ipc.js';
import { runLoad, type LoadResult } from './load.js';
import { machine } from './report.js';
import { listScenario, requestHeaders } from './scenarios.js';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const CONNECTIONS = 50;
/** Long enough that every idle socket is really parked in the server, short of its keep-alive timeout. */
const IDLE_HOLD_MS = 3_000;

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '1000000' },
    flood: { type: 'string', default: '200000' },
    idle: { type: 'string', default: '1000' },
  },
});

interface PhaseRow {
  phase: string;
  requests: number;
  requestsPerSecond: number;
  statuses: string;
  rssMiB: number;
  heapAfterGcMiB: number;
  peakRssMiB: number;
}

function log(line: string): void {
  process.stderr.write(`[soak] ${line}\n`);
}

function row(phase: string, stats: MemoryStats, load?: LoadResult): PhaseRow {
  const statuses = load
    ? Object.entries(load.statusCodes)
        .map(([code, { count }]) => `${code}x${count}`)
        .join(' ')
    : '-';
  return {
    phase,
    requests: load?.requests ?? 0,
    requestsPerSecond: Math.round(load?.requestsPerSecond ?? 0),
    statuses,
    rssMiB: mib(stats.rss),
    heapAfterGcMiB: mib(stats.heapUsed),
    peakRssMiB: mib(stats.peakRss),
  };
}

/** Opens `count` keep-alive connections, one request each, and holds them idle for a while. */
async function holdIdleConnections(
  url: string,
  count: number,
  server: Child,
): Promise<MemoryStats> {
  const agent = new Agent({ keepAlive: true, maxSockets: count, maxFreeSockets: count });
  const headers = requestHeaders(listScenario());
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          request(url, { agent, headers }, (res) => {
            res.resume();
            res.on('end', resolve);
          })
            .on('error', reject)
            .end();
        }),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, IDLE_HOLD_MS));
  const held = await server.stats(true);
  agent.destroy();
  return held;
}

const mock = new Child('./mock-child.ts', ['1'], { execArgv: ['--expose-gc'] });
const rows: PhaseRow[] = [];
try {
  const { url } = await mock.next('ready');
  const list = listScenario();
  const target = `${url}${list.path}`;
  const spec = {
    url: target,
    method: list.method,
    headers: requestHeaders(list),
    connections: CONNECTIONS,
    durationSeconds: 0,
    warmupSeconds: 0,
  };
  await runLoad({ ...spec, amount: 20_000 });
  rows.push(row('after start and 20k warm-up requests', await mock.stats(true)));

  log(`distinct-key flood: ${values.flood} requests, every key new`);
  mock.send({ type: 'reset-peak' });
  const flood = await runLoad({ ...spec, amount: Number(values.flood), distinctKeys: true });
  rows.push(row(`distinct-key flood (${values.flood} new keys)`, await mock.stats(true), flood));

  log(`${values.idle} idle keep-alive connections`);
  mock.send({ type: 'reset-peak' });
  rows.push(
    row(
      `${values.idle} keep-alive connections held idle`,
      await holdIdleConnections(target, Number(values.idle), mock),
    ),
  );
  rows.push(row('after those connections closed', await mock.stats(true)));

  log(`soak: ${values.requests} requests of the list page`);
  mock.send({ type: 'reset-peak' });
  const soak = await runLoad({ ...spec, amount: Number(values.requests) });
  rows.push(row(`soak (${values.requests} requests)`, await mock.stats(true), soak));
} finally {
  await mock.stop();
}

const m = machine();
const date = new Date().toISOString();
const markdown = [
  `### Soak (${date.slice(0, 10)})`,
  '',
  `Machine: ${m.cpu}, ${m.cores} cores, Node ${m.node}. Mock at scale 1 in its own process with --expose-gc; autocannon in another, ${CONNECTIONS} connections. "heap after GC" is taken right after a full collection.`,
  '',
  '| phase | requests | req/s | statuses | RSS MiB | heap after GC MiB | peak RSS in phase MiB |',
  '|---|---:|---:|---|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.phase} | ${r.requests} | ${r.requestsPerSecond} | ${r.statuses} | ${r.rssMiB} | ${r.heapAfterGcMiB} | ${r.peakRssMiB} |`,
  ),
  '',
].join('\n');
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(`${RESULTS_DIR}soak.md`, markdown);
writeFileSync(
  `${RESULTS_DIR}soak.json`,
  `${JSON.stringify({ date, machine: m, rows }, null, 2)}\n`,
);
process.stdout.write(markdown);
