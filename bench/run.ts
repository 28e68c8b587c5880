/**
 * @module bench/run
 * `npm run bench`: every scenario against the mock and against a bare `node:http` baseline that
 * replays the mock's own bytes, in the same run, each server in its own process and autocannon in
 * a third; the products list again at larger scales; cold starts of the CLI at scale 1 and 1000.
 * Prints the Markdown table and writes `bench/results/latest.{md,json}`.
 *
 * Options (flags or environment): `--duration` / BENCH_DURATION seconds per run (default 8),
 * `--warmup` / BENCH_WARMUP (default 2), `--connections` (50), `--scales 1,10,100`,
 * `--startup-scales 1,1000` (empty to skip), `--only <scenario id>`, `--profile` (the mock child
 * writes a V8 CPU profile to bench/results/profiles/).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Child, type MemoryStats } from './ipc.js';
import { runLoad, type LoadSpec } from './load.js';
import { machine, writeReport, type BenchReport, type Row, type Side } from './report.js';
import { allScenarios, capture, LIST_SCENARIO, listScenario, requestHeaders, type MockInfo, type Scenario } from './scenarios.js';
import { BENCH_KEY, probeStartup, type StartupResult } from './startup.js';

const DEFAULT_DURATION_S = 8;
const DEFAULT_WARMUP_S = 2;
const DEFAULT_CONNECTIONS = 50;
const PROFILE_DIR = fileURLToPath(new URL('./results/profiles/', import.meta.url));

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? String(DEFAULT_DURATION_S) },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? String(DEFAULT_WARMUP_S) },
    connections: { type: 'string', default: String(DEFAULT_CONNECTIONS) },
    scales: { type: 'string', default: '1,10,100' },
    'startup-scales': { type: 'string', default: '1,1000' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});

const numbers = (raw: string) => raw.split(',').filter(Boolean).map(Number);
const settings = { connections: Number(values.connections), durationSeconds: Number(values.duration), warmupSeconds: Number(values.warmup), key: '$API_KEY (demo-unlimited tier)' };

/** One measured run against one server, with that server's RSS peak over the measured part only. */
async function measure(server: Child, url: string, scenario: Scenario): Promise<Side> {
  const spec: LoadSpec = { url, method: scenario.method, headers: requestHeaders(scenario), body: scenario.body, ...settings };
  const result = await runLoad(spec, () => server.send({ type: 'reset-peak' }));
  const stats: MemoryStats = await server.stats();
  return { ...result, peakRssBytes: stats.peakRss, cpuMicrosPerRequest: stats.cpuMicrosSinceReset / Math.max(1, result.requests) };
}

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

async function benchScale(scale: number, baseline: Child, baselineUrl: string): Promise<Row[]> {
  const execArgv = values.profile ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [];
  const mock = new Child('./mock-child.ts', [String(scale)], { execArgv });
  const rows: Row[] = [];
  try {
    const ready = await mock.next('ready');
    const info = ready.info as unknown as MockInfo;
    log(`mock at scale ${scale}: ${info.products} products, ${info.parts} parts`);
    const scenarios = (scale === 1 ? allScenarios(info) : [listScenario()]).filter((s) => !values.only || s.id === values.only);
    for (const scenario of scenarios) {
      const response = await capture(ready.url, scenario);
      const serving = baseline.next('serving');
      baseline.send({ type: 'serve', response });
      await serving;
      log(`${scenario.id} (scale ${scale}): mock`);
      const mockSide = await measure(mock, `${ready.url}${scenario.path}`, scenario);
      log(`${scenario.id} (scale ${scale}): baseline`);
      const baseSide = await measure(baseline, `${baselineUrl}${scenario.path}`, scenario);
      rows.push({ scenario: scenario.id, title: scenario.title, scale, responseBytes: Buffer.from(response.bodyBase64, 'base64').length, mock: mockSide, baseline: baseSide });
      const r = rows.at(-1)!;
      log(`  mock ${Math.round(r.mock.requestsPerSecond)} req/s p99 ${r.mock.latencyP99} ms | baseline ${Math.round(r.baseline.requestsPerSecond)} req/s | ratio ${(r.mock.requestsPerSecond / r.baseline.requestsPerSecond).toFixed(2)}`);
    }
  } finally {
    await mock.stop();
  }
  return rows;
}

const rows: Row[] = [];
const baseline = new Child('./baseline-child.ts');
try {
  const { url: baselineUrl } = await baseline.next('ready');
  for (const scale of numbers(values.scales)) {
    if (values.only && scale !== 1 && values.only !== LIST_SCENARIO) continue;
    rows.push(...(await benchScale(scale, baseline, baselineUrl)));
  }
} finally {
  await baseline.stop();
}

const startup: StartupResult[] = [];
for (const scale of numbers(values['startup-scales'])) {
  log(`cold start of the CLI at scale ${scale}`);
  startup.push(await probeStartup(scale));
}

const report: BenchReport = { date: new Date().toISOString(), machine: machine(), settings, rows, startup };
// The key is a demo key, but reports never carry key values.
if (JSON.stringify(report).includes(BENCH_KEY)) throw new Error('the report would contain the API key');
process.stdout.write(writeReport(report));
