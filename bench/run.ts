/**
 * @module bench/run
 * `npm run bench`: every scenario against the mock and against a bare `node:http` baseline that
 * replays the mock's own bytes, in the same run, each server in its own process and autocannon in
 * a third; the list pages again at the live catalogue's size; cold starts of the CLI at scale 1
 * and 1000. Prints the Markdown table with each target's ratio and verdict, and writes
 * `bench/results/latest.{md,json}`.
 *
 * Options (flags or environment): `--duration` / BENCH_DURATION seconds per run (default 4),
 * `--warmup` / BENCH_WARMUP (default 2; later rounds warm up for half as long), `--rounds` /
 * BENCH_ROUNDS (default 4: each build of the mock, then the baseline, back to back, that many
 * times; the builds' order alternates), `--connections` (50), `--sizes 1,live` (scale factors or
 * `live`; the first size runs every scenario, the others the list pages), `--startup-scales 1,1000`
 * (empty to skip; `live` allowed), `--builds tsx,compiled` / BENCH_BUILDS (which builds of the mock:
 * through tsx as `npm start` runs it, the package's compiled JavaScript as an installed package runs
 * it; each scenario and cold start is measured for each, interleaved, and a table compares them),
 * `--only <scenario id>[,<id>...]`, `--profile` (the mock child writes a V8 CPU profile to
 * bench/results/profiles/), `--no-state-store` (skip the Redis-against-memory comparison, which
 * otherwise ends a full run and writes `bench/results/state-store.md`), `--cold-start-rounds 5`
 * (0 skips: rounds of cold starts beside a bare node:http server, of the packed and installed
 * package among others, and of import and `createMockApp()`; see cold-start.ts), `--installed
 * <project dir>` (reuse an installed copy instead of packing and installing one).
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILDS, compileBench, parseBuilds, type Build } from './builds.js';
import { Child, type CapturedResponse, type MemoryStats } from './ipc.js';
import { runLoad, type LoadSpec } from './load.js';
import {
  machine,
  rowFromRounds,
  writeReport,
  type BenchReport,
  type Round,
  type Row,
  type Side,
} from './report.js';
import {
  allScenarios,
  capture,
  FLOOR_SCENARIO,
  LIST_SCENARIO,
  listScenarios,
  requestHeaders,
  type MockInfo,
  type Scenario,
} from './scenarios.js';
import { BENCH_KEY, combineStartups, probeStartup, type StartupResult } from './startup.js';
import { compareStores, type StoreComparison } from './state-store.js';
import { installPacked, measureColdStarts, type ColdStartReport } from './cold-start.js';
import { measureSizes, type SizeReport } from './sizes.js';
import { writeFileSync } from 'node:fs';

const DEFAULT_DURATION_S = 4;
/**
 * Rounds per scenario (each server, then the baseline): one pair alone moved by tens of percent
 * between runs. Four, so that with two builds each comes first in two rounds.
 */
const DEFAULT_ROUNDS = 4;
/** Cold starts per build and scale: one alone moved by a tenth between runs. */
const STARTUP_SAMPLES = 3;
const DEFAULT_WARMUP_S = 2;
const DEFAULT_CONNECTIONS = 50;
const STATE_REPORT = fileURLToPath(new URL('./results/state-store.md', import.meta.url));
const PROFILE_DIR = fileURLToPath(new URL('./results/profiles/', import.meta.url));

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: process.env.BENCH_DURATION ?? String(DEFAULT_DURATION_S) },
    warmup: { type: 'string', default: process.env.BENCH_WARMUP ?? String(DEFAULT_WARMUP_S) },
    rounds: { type: 'string', default: process.env.BENCH_ROUNDS ?? String(DEFAULT_ROUNDS) },
    connections: { type: 'string', default: String(DEFAULT_CONNECTIONS) },
    sizes: { type: 'string', default: '1,live' },
    'startup-scales': { type: 'string', default: '1,live,1000' },
    builds: { type: 'string', default: process.env.BENCH_BUILDS ?? BUILDS.join(',') },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'state-store': { type: 'boolean', default: true },
    'cold-start-rounds': { type: 'string', default: '5' },
    installed: { type: 'string' },
  },
  allowNegative: true,
});

const list = (raw: string) => raw.split(',').filter(Boolean);
const scales = (raw: string) =>
  list(raw).map((s) => (s === 'live' ? ('live' as const) : Number(s)));
const builds = parseBuilds(values.builds);
const settings = {
  connections: Number(values.connections),
  durationSeconds: Number(values.duration),
  warmupSeconds: Number(values.warmup),
  rounds: Number(values.rounds),
  key: '$API_KEY (demo-unlimited tier)',
};
for (const [name, value] of Object.entries(settings)) {
  if (
    typeof value === 'number' &&
    !(Number.isInteger(value) && value >= (name === 'warmupSeconds' ? 0 : 1))
  )
    throw new Error(
      `--${name.replace('Seconds', '')} must be a whole number${name === 'warmupSeconds' ? '' : ' of at least 1'}; received ${value}`,
    );
}

/** One measured run against one server, with that server's RSS peak over the measured part only. */
async function measure(
  server: Child,
  url: string,
  scenario: Scenario,
  round: number,
): Promise<Side> {
  // The servers are warm after the first round; later rounds only need their connections open again.
  const warmupSeconds =
    round === 0 ? settings.warmupSeconds : Math.ceil(settings.warmupSeconds / 2);
  const spec: LoadSpec = {
    url,
    method: scenario.method,
    headers: requestHeaders(scenario),
    body: scenario.body,
    connections: settings.connections,
    durationSeconds: settings.durationSeconds,
    warmupSeconds,
  };
  const result = await runLoad(spec, () => server.send({ type: 'reset-peak' }));
  const stats: MemoryStats = await server.stats();
  return {
    ...result,
    peakRssBytes: stats.peakRss,
    cpuMicrosPerRequest: stats.cpuMicrosSinceReset / Math.max(1, result.requests),
  };
}

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

function logRound(name: string, r: Round): void {
  log(
    `  ${name}: ${Math.round(r.mock.requestsPerSecond)} req/s p99 ${r.mock.latencyP99} ms, ${Math.round(r.mock.cpuMicrosPerRequest)} us CPU | baseline ${Math.round(r.baseline.requestsPerSecond)} req/s, ${Math.round(r.baseline.cpuMicrosPerRequest)} us | ratio ${(r.mock.requestsPerSecond / r.baseline.requestsPerSecond).toFixed(2)}`,
  );
}

/**
 * `rounds` rounds per scenario. In each, every server under test runs once, then the baseline
 * right after them; each server's round is its run and that baseline run. With two servers (the
 * tsx and compiled builds) their order alternates from round to round (A B, B A, ...), so neither
 * always gets the machine just after the baseline's load, and a round's two runs compare directly.
 */
async function measureRounds(
  label: string,
  servers: readonly { name: string; child: Child; url: string }[],
  baseline: Child,
  baselineUrl: string,
  scenario: Scenario,
): Promise<Round[][]> {
  const rounds: Round[][] = servers.map(() => []);
  for (let k = 0; k < settings.rounds; k++) {
    log(`${label}: round ${k + 1} of ${settings.rounds}`);
    const order = servers.map((_, i) => i);
    if (k % 2 === 1) order.reverse();
    const sides = new Map<number, Side>();
    for (const i of order)
      sides.set(
        i,
        await measure(servers[i].child, `${servers[i].url}${scenario.path}`, scenario, k),
      );
    const base = await measure(baseline, `${baselineUrl}${scenario.path}`, scenario, k);
    servers.forEach((server, i) => {
      rounds[i].push({ mock: sides.get(i)!, baseline: base });
      logRound(server.name, rounds[i].at(-1)!);
    });
  }
  return rounds;
}

/** The yardstick servers, each in its own process: bare node:http, and Hono alone (the framework floor). */
interface Yardsticks {
  baseline: Child;
  baselineUrl: string;
  floor: Child;
  floorUrl: string;
}

/** Hands a captured response to a yardstick server and waits until it serves it. */
async function serveCapture(server: Child, response: CapturedResponse): Promise<void> {
  const serving = server.next('serving');
  server.send({ type: 'serve', response });
  await serving;
}

/** A mock of one build, started and ready. */
interface StartedMock {
  name: string;
  build: (typeof builds)[number];
  child: Child;
  url: string;
  info: MockInfo;
}

/** Waits until every mock is ready, and says what dataset each serves. */
function whenReady(
  size: string,
  mocks: readonly { build: (typeof builds)[number]; child: Child }[],
): Promise<StartedMock[]> {
  return Promise.all(
    mocks.map(async ({ build, child }) => {
      const ready = await child.next('ready');
      const info = ready.info as unknown as MockInfo;
      log(
        `mock (${build}) at size ${size}: ${info.products} products, ${info.parts} parts, ${info.documents} documents, ${info.boardsKits} boards and kits`,
      );
      return { name: `mock (${build})`, build, child, url: ready.url, info };
    }),
  );
}

/** One scenario at one size: the mock's bytes served by the baseline, each build against it. */
async function benchScenario(
  size: string,
  scenario: Scenario,
  started: readonly StartedMock[],
  yardsticks: Yardsticks,
): Promise<{ rows: Row[]; response: CapturedResponse; responseBytes: number }> {
  const { baseline, baselineUrl } = yardsticks;
  const response = await capture(started[0].url, scenario);
  await serveCapture(baseline, response);
  const responseBytes = Buffer.from(response.bodyBase64, 'base64').length;
  const rounds = await measureRounds(
    `${scenario.id} (size ${size})`,
    started,
    baseline,
    baselineUrl,
    scenario,
  );
  const rows = started.map(({ build }, i) =>
    rowFromRounds(
      {
        scenario: scenario.id,
        build,
        title: scenario.title,
        size,
        target: scenario.target,
        responseBytes,
      },
      rounds[i],
    ),
  );
  return { rows, response, responseBytes };
}

/** The same bytes through Hono alone, against the baseline: the part no mock code can remove. */
async function benchFloor(
  size: string,
  scenario: Scenario,
  captured: { response: CapturedResponse; responseBytes: number },
  yardsticks: Yardsticks,
): Promise<Row> {
  const { baseline, baselineUrl, floor, floorUrl } = yardsticks;
  await serveCapture(floor, captured.response);
  const [floorRounds] = await measureRounds(
    `${scenario.id} (size ${size}), Hono alone`,
    [{ name: 'Hono alone', child: floor, url: floorUrl }],
    baseline,
    baselineUrl,
    scenario,
  );
  return rowFromRounds(
    {
      scenario: FLOOR_SCENARIO,
      title: 'products list, first page, from Hono alone (framework floor, no mock code)',
      size,
      responseBytes: captured.responseBytes,
    },
    floorRounds,
  );
}

/** Every scenario of a size (the list pages only after the first size), each build of the mock side by side. */
async function benchSize(
  size: string,
  everyScenario: boolean,
  yardsticks: Yardsticks,
): Promise<Row[]> {
  const execArgv = [
    '--expose-gc',
    ...(values.profile ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : []),
  ];
  // One mock per build, all started before the first scenario so their rounds can interleave.
  const mocks = builds.map((build) => ({
    build,
    child: new Child('./mock-child.ts', [size], { execArgv, build }),
  }));
  const rows: Row[] = [];
  try {
    const started = await whenReady(size, mocks);
    const { info } = started[0];
    const scenarios = (everyScenario ? allScenarios(info) : listScenarios(info)).filter(
      (s) => !values.only || values.only.split(',').includes(s.id),
    );
    for (const scenario of scenarios) {
      const measured = await benchScenario(size, scenario, started, yardsticks);
      rows.push(...measured.rows);
      if (everyScenario && scenario.id === LIST_SCENARIO)
        rows.push(await benchFloor(size, scenario, measured, yardsticks));
    }
  } finally {
    await Promise.all(mocks.map(({ child }) => child.stop()));
  }
  return rows;
}

// The compiled side runs the package's JavaScript (dist/) and compiled bench children: build both.
if (builds.includes('compiled')) {
  log('compiling the package and the bench children (tsc)');
  compileBench();
}

const rows: Row[] = [];
const skipped: BenchReport['skipped'] = [];
const baseline = new Child('./baseline-child.ts');
const floor = new Child('./baseline-child.ts', ['hono']);
try {
  const [{ url: baselineUrl }, { url: floorUrl }] = await Promise.all([
    baseline.next('ready'),
    floor.next('ready'),
  ]);
  for (const [k, size] of list(values.sizes).entries()) {
    try {
      rows.push(...(await benchSize(size, k === 0, { baseline, baselineUrl, floor, floorUrl })));
    } catch (error) {
      // A size the mock cannot start at is reported, not silently dropped; the first size must work.
      if (k === 0) throw error;
      log(`size ${size} skipped: ${(error as Error).message.split('\n')[0]}`);
      skipped.push({ size, reason: (error as Error).message.split('\n')[0] });
    }
  }
} finally {
  await Promise.all([baseline.stop(), floor.stop()]);
}

// Cold starts: STARTUP_SAMPLES of each build per scale, the builds' order alternating.
const startup: StartupResult[] = [];
for (const scale of scales(values['startup-scales'])) {
  const samples = new Map<Build, StartupResult[]>(builds.map((b) => [b, []]));
  for (let k = 0; k < STARTUP_SAMPLES; k++)
    for (const build of k % 2 === 0 ? builds : [...builds].reverse()) {
      log(`cold start of the CLI (${build}) at scale ${scale}: ${k + 1} of ${STARTUP_SAMPLES}`);
      samples.get(build)!.push(await probeStartup(scale, build));
    }
  for (const build of builds) startup.push(combineStartups(samples.get(build)!));
}

// Cold starts beside a bare server, and import and in-process readiness (issue 32).
const coldStartRounds = Number(values['cold-start-rounds']);
if (!(Number.isInteger(coldStartRounds) && coldStartRounds >= 0))
  throw new Error(
    `--cold-start-rounds must be a whole number; received ${values['cold-start-rounds']}`,
  );
let coldStart: ColdStartReport | undefined;
// The install's size is read from the project the cold starts installed; the image's from podman.
let sizes: SizeReport | undefined;
if (coldStartRounds > 0) {
  let project = values.installed;
  if (!project) {
    log(
      'packing and installing the package for the cold starts (npm pack, npm install --omit=dev)',
    );
    project = await installPacked();
  }
  coldStart = await measureColdStarts(coldStartRounds, project, log);
  sizes = measureSizes(project);
}

// The shared state store's cost (one instance, Redis against memory): skipped for one scenario.
let stateStore: StoreComparison | undefined;
if (!values.only && values['state-store']) {
  log('state store: one instance with Redis against the same in memory');
  stateStore = await compareStores(settings);
  writeFileSync(STATE_REPORT, stateStore.section);
}

const report: BenchReport = {
  date: new Date().toISOString(),
  machine: machine(),
  settings,
  rows,
  skipped,
  startup,
  coldStart,
  sizes,
  stateStore,
};
// The key is a demo key, but reports never carry key values.
const reportText = JSON.stringify(report);
if (reportText.includes(BENCH_KEY) || reportText.includes('wdm-scope-'))
  throw new Error('the report would contain an API key');
process.stdout.write(writeReport(report));
