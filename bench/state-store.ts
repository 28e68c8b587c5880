/**
 * @module bench/state-store
 * What keeping the mock's state in Redis costs: one mock instance with `--state redis://...`
 * against the same instance in memory, on the same scenario (a product part by id: a small answer,
 * so the store's share of a request shows), measured back to back in rounds. Reports throughput,
 * p99 and their ratios (Redis / memory), the mock's CPU per request in each, the CPU it adds per
 * request, redis-server's own CPU per request and how many script calls it ran per request (under
 * 1 when the store batches the requests of one event-loop turn into one call). Runs from `npm run bench` (skipped with a note
 * when redis-server is not installed) or alone: `npx tsx bench/state-store.ts [--rounds 3 --duration 4]`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { redisAvailable, TestRedis } from '../src/testing/redis-server.js';
import { Child } from './ipc.js';
import { runLoad, type LoadResult } from './load.js';
import { allScenarios, requestHeaders, type MockInfo } from './scenarios.js';

const SCENARIO = 'part-by-id';
/** Linux clock ticks per second for /proc/<pid>/stat. */
const CLOCK_TICKS = 100;

export interface StoreSettings {
  rounds: number;
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
}

interface Measured {
  result: LoadResult;
  cpuMicrosPerRequest: number;
  redisMicrosPerRequest?: number;
  scriptCallsPerRequest?: number;
}

/** Script calls (EVAL, EVALSHA) redis-server has run so far, from INFO commandstats. */
async function scriptCalls(redis: Redis): Promise<number> {
  let calls = 0;
  for (const [, n] of (await redis.info('commandstats')).matchAll(
    /cmdstat_eval(?:sha)?:calls=(\d+)/g,
  ))
    calls += Number(n);
  return calls;
}

/** CPU (user + system) a process has used, in microseconds, from /proc. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // After "pid (comm) ": state is field 0, utime 11, stime 12.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}

async function measure(
  mock: Mock,
  settings: StoreSettings,
  round: number,
  redis?: { pid?: number; client: Redis },
): Promise<Measured> {
  const { child, url } = mock;
  const scenario = allScenarios(mock.info).find((s) => s.id === SCENARIO)!;
  let redisMark = 0;
  let callsMark: Promise<number> | undefined;
  const result = await runLoad(
    {
      url: `${url}${scenario.path}`,
      method: scenario.method,
      headers: requestHeaders(scenario),
      connections: settings.connections,
      durationSeconds: settings.durationSeconds,
      warmupSeconds: round === 0 ? settings.warmupSeconds : Math.ceil(settings.warmupSeconds / 2),
    },
    () => {
      child.send({ type: 'reset-peak' });
      if (redis) {
        if (redis.pid) redisMark = cpuMicros(redis.pid);
        callsMark = scriptCalls(redis.client);
      }
    },
  );
  const stats = await child.stats();
  const requests = Math.max(1, result.requests);
  return {
    result,
    cpuMicrosPerRequest: stats.cpuMicrosSinceReset / requests,
    redisMicrosPerRequest: redis?.pid ? (cpuMicros(redis.pid) - redisMark) / requests : undefined,
    scriptCallsPerRequest:
      redis && callsMark
        ? ((await scriptCalls(redis.client)) - (await callsMark)) / requests
        : undefined,
  };
}

interface Mock {
  child: Child;
  url: string;
  info: MockInfo;
}

async function startMock(stateUrl?: string): Promise<Mock> {
  const child = new Child('./mock-child.ts', ['1', '1', ...(stateUrl ? [stateUrl] : [])], {
    execArgv: ['--expose-gc'],
  });
  const ready = await child.next('ready');
  return { child, url: ready.url, info: ready.info as unknown as MockInfo };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Issue 32: Redis-backed throughput at least this share of memory's, p99 at most this multiple. */
export const STORE_TARGETS = { throughputRatio: 0.8, p99Factor: 1.3 } as const;

export interface StoreComparison {
  /** The Markdown section: the table and the ratios, or why nothing was measured. */
  section: string;
  /** Medians of the rounds' own ratios (Redis / memory); absent when not measured. */
  throughputRatio?: number;
  p99Ratio?: number;
}

/** The state store's targets, each with its measure (not measured: not met). */
export function storeChecks(
  c: StoreComparison,
): { target: string; measured: string; ok: boolean }[] {
  const not = 'not measured (redis-server missing)';
  return [
    {
      target: `Redis store (${SCENARIO}): throughput >= ${STORE_TARGETS.throughputRatio} of the same instance in memory, same rounds`,
      measured: c.throughputRatio === undefined ? not : c.throughputRatio.toFixed(2),
      ok: c.throughputRatio !== undefined && c.throughputRatio >= STORE_TARGETS.throughputRatio,
    },
    {
      target: `Redis store (${SCENARIO}): p99 <= ${STORE_TARGETS.p99Factor}x memory's, same rounds`,
      measured: c.p99Ratio === undefined ? not : `${c.p99Ratio.toFixed(2)}x`,
      ok: c.p99Ratio !== undefined && c.p99Ratio <= STORE_TARGETS.p99Factor,
    },
  ];
}

/** Runs the comparison: its Markdown section and ratios (or a note when redis-server is missing). */
export async function compareStores(settings: StoreSettings): Promise<StoreComparison> {
  if (!redisAvailable())
    return {
      section: '## State store\n\nNot measured: redis-server is not installed on this machine.\n',
    };
  const redis = await TestRedis.start();
  const client = new Redis(redis.url);
  const memory = await startMock();
  const shared = await startMock(redis.url);
  const rows: { memory: Measured; redis: Measured }[] = [];
  try {
    for (let k = 0; k < settings.rounds; k += 1) {
      process.stderr.write(`[bench] state store: round ${k + 1} of ${settings.rounds}\n`);
      const m = await measure(memory, settings, k);
      const r = await measure(shared, settings, k, { pid: redis.pid, client });
      rows.push({ memory: m, redis: r });
      process.stderr.write(
        `[bench]   memory ${Math.round(m.result.requestsPerSecond)} req/s p99 ${m.result.latencyP99} ms | redis ${Math.round(r.result.requestsPerSecond)} req/s p99 ${r.result.latencyP99} ms\n`,
      );
    }
  } finally {
    await Promise.all([memory.child.stop(), shared.child.stop()]);
    client.disconnect();
    await redis.stop();
  }
  const pick = (f: (row: (typeof rows)[number]) => number) => median(rows.map(f));
  const rpsM = pick((x) => x.memory.result.requestsPerSecond);
  const rpsR = pick((x) => x.redis.result.requestsPerSecond);
  const p99M = pick((x) => x.memory.result.latencyP99);
  const p99R = pick((x) => x.redis.result.latencyP99);
  const cpuM = pick((x) => x.memory.cpuMicrosPerRequest);
  const cpuR = pick((x) => x.redis.cpuMicrosPerRequest);
  const redisCpu = pick((x) => x.redis.redisMicrosPerRequest ?? 0);
  const calls = pick((x) => x.redis.scriptCallsPerRequest ?? 0);
  // As run.ts: each round's own ratio (its two runs shared the machine's state), then the median.
  const ratios = rows.map(
    (x) => x.redis.result.requestsPerSecond / x.memory.result.requestsPerSecond,
  );
  const p99Ratios = rows.map(
    (x) => x.redis.result.latencyP99 / Math.max(x.memory.result.latencyP99, 0.001),
  );
  const spread = (xs: number[]) => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;
  const errors = rows.reduce((n, x) => n + x.redis.result.non2xx + x.redis.result.errors, 0);
  const section = [
    '## State store (one instance, Redis against memory)',
    '',
    `Scenario ${SCENARIO}, ${settings.connections} connections, ${settings.rounds} round(s) of ${settings.durationSeconds} s, medians; redis-server on the same machine.`,
    '',
    '| store | req/s | p99 ms | mock CPU us/req | redis-server CPU us/req |',
    '|---|---|---|---|---|',
    `| memory | ${Math.round(rpsM)} | ${p99M} | ${cpuM.toFixed(1)} | - |`,
    `| redis | ${Math.round(rpsR)} | ${p99R} | ${cpuR.toFixed(1)} | ${redisCpu.toFixed(1)} |`,
    '',
    `Ratio redis/memory (median of the rounds' own ratios, lowest-highest round): throughput ${median(ratios).toFixed(2)} (${spread(ratios)}), p99 ${median(p99Ratios).toFixed(2)} (${spread(p99Ratios)}). ` +
      `Added per request: ${(cpuR - cpuM).toFixed(1)} us of the mock's CPU, ${redisCpu.toFixed(1)} us of redis-server's, ${calls.toFixed(3)} script calls (${(1 / Math.max(calls, 1e-9)).toFixed(1)} requests a call)` +
      `${errors > 0 ? `; ${errors} non-2xx or failed requests under Redis` : ''}.`,
    '',
  ].join('\n');
  return { section, throughputRatio: median(ratios), p99Ratio: median(p99Ratios) };
}

if (process.argv[1]?.endsWith('state-store.ts')) {
  const { values } = parseArgs({
    options: {
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '4' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
    },
  });
  const comparison = await compareStores({
    rounds: Number(values.rounds),
    durationSeconds: Number(values.duration),
    warmupSeconds: Number(values.warmup),
    connections: Number(values.connections),
  });
  process.stdout.write(comparison.section);
  for (const c of storeChecks(comparison))
    process.stdout.write(`${c.target}: ${c.measured} ${c.ok ? '(met)' : '(not met)'}\n`);
}
