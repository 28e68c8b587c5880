/**
 * @module bench/report
 * Turns one bench run into the Markdown table the README quotes and the JSON kept beside it
 * (`bench/results/latest.md` and `.json`), with the date and the machine, and checks the targets.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './load.js';
import { mib } from './ipc.js';
import type { Build } from './builds.js';
import type { TargetKind } from './scenarios.js';
import type { StartupResult } from './startup.js';
import type { ColdStartReport, StartKind } from './cold-start.js';
import { median } from './stats.js';
import { sizeChecks, type SizeReport } from './sizes.js';
import { storeChecks, type StoreComparison } from './state-store.js';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

/** The issue's targets, by name, so the table and the check read the same numbers. */
export const TARGETS = {
  /** List pages (first and last, every size): throughput as a share of the bare server's. */
  listRatio: 0.7,
  /** List pages: mock CPU per request at most this many times the baseline's. */
  listCpuFactor: 1.5,
  listP99Ms: 10,
  /** Issue 32 (issue 15 asked 0.6): by-ID reads, throughput as a share of the bare server's. */
  byIdRatio: 0.8,
  /** Issue 32 (issue 15 asked 0.5): cross-reference and parametric search, the same share. */
  heavyRatio: 0.7,
  startupMs: 1000,
  scale1000StartupMs: 15_000,
  scale1000RssBytes: 1.5 * 1024 ** 3,
  /** Issue 32: the installed mock's first answer, as a multiple of a bare node:http server's. */
  coldStartFactor: 4,
  /** Issue 32: `createMockApp()` resolved this soon after the import. */
  createMockAppMs: 100,
  /** Issue 32: the package root imported this fast. */
  importMs: 200,
} as const;

export interface Side extends LoadResult {
  peakRssBytes: number;
  /** Server CPU (user + system) per answered request over the measured run: robust to a busy machine. */
  cpuMicrosPerRequest: number;
}

/** One round of a row: the mock's run and the baseline's run right after it. */
export interface Round {
  mock: Side;
  baseline: Side;
}

export interface Row {
  scenario: string;
  /** Which build of the mock served it (tsx or compiled); tsx when absent (older reports). */
  build?: Build;
  title: string;
  /** A scale factor, or `live` (the live catalogue's size). */
  size: string;
  /** Which target judges this row (none: reported only). */
  target?: TargetKind;
  responseBytes: number;
  /** Each side's figures over the rounds: medians (peak RSS: the highest; counts: summed). */
  mock: Side;
  baseline: Side;
  /**
   * The rounds, mock and baseline alternating, when there was more than one. Verdicts read the
   * median of the rounds' own ratios: a pair measured back to back shares the machine's state,
   * so drift between rounds cancels out of each ratio.
   */
  rounds?: Round[];
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
}

export interface BenchReport {
  date: string;
  machine: Machine;
  settings: {
    connections: number;
    durationSeconds: number;
    warmupSeconds: number;
    rounds?: number;
    key: string;
  };
  rows: Row[];
  /** Sizes the mock could not be started at, with why (their targets count as not met). */
  skipped: { size: string; reason: string }[];
  startup: StartupResult[];
  /** Cold starts beside a bare server, import and in-process readiness (issue 32); absent when not run. */
  coldStart?: ColdStartReport;
  /** The production install and the container image's layers (issue 32); absent when not measured. */
  sizes?: SizeReport;
  /** The Redis store against memory (issue 32); absent when not run. */
  stateStore?: StoreComparison;
}

export function machine(): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    os: `${platform()} ${release()}`,
    node: process.version,
  };
}

const fixed = (n: number, digits = 2) => n.toFixed(digits);

/** One side's figures over several rounds: medians of rates, latencies and CPU; the highest RSS; summed counts. */
export function combineSides(sides: readonly Side[]): Side {
  const mid = (pick: (s: Side) => number) => median(sides.map(pick));
  const sum = (pick: (s: Side) => number) => sides.reduce((total, s) => total + pick(s), 0);
  const statusCodes: Side['statusCodes'] = {};
  for (const s of sides)
    for (const [code, { count }] of Object.entries(s.statusCodes))
      statusCodes[code] = { count: (statusCodes[code]?.count ?? 0) + count };
  return {
    requestsPerSecond: mid((s) => s.requestsPerSecond),
    latencyP50: mid((s) => s.latencyP50),
    latencyP99: mid((s) => s.latencyP99),
    latencyMean: mid((s) => s.latencyMean),
    latencyMax: Math.max(...sides.map((s) => s.latencyMax)),
    requests: sum((s) => s.requests),
    non2xx: sum((s) => s.non2xx),
    statusCodes,
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
    durationSeconds: sum((s) => s.durationSeconds),
    bytesPerSecond: mid((s) => s.bytesPerSecond),
    peakRssBytes: Math.max(...sides.map((s) => s.peakRssBytes)),
    cpuMicrosPerRequest: mid((s) => s.cpuMicrosPerRequest),
  };
}

/** A row from its rounds (one round: that round's figures as they are). */
export function rowFromRounds(
  row: Omit<Row, 'mock' | 'baseline' | 'rounds'>,
  rounds: Round[],
): Row {
  if (rounds.length === 1) return { ...row, mock: rounds[0].mock, baseline: rounds[0].baseline };
  return {
    ...row,
    mock: combineSides(rounds.map((r) => r.mock)),
    baseline: combineSides(rounds.map((r) => r.baseline)),
    rounds,
  };
}

const pairs = (row: Row): Round[] => row.rounds ?? [{ mock: row.mock, baseline: row.baseline }];
const roundRatio = (r: Round) => r.mock.requestsPerSecond / r.baseline.requestsPerSecond;
const roundCpuFactor = (r: Round) => r.mock.cpuMicrosPerRequest / r.baseline.cpuMicrosPerRequest;
/** Mock req/s over the baseline's: the median of the rounds' ratios. */
const ratio = (row: Row) => median(pairs(row).map(roundRatio));
/** Mock CPU per request over the baseline's: the median of the rounds' factors. */
const cpuFactor = (row: Row) => median(pairs(row).map(roundCpuFactor));
/** Baseline CPU per request over the mock's: the throughput ratio a quiet machine would show if CPU were the limit. */
const cpuRatio = (row: Row) => 1 / cpuFactor(row);
/** The lowest and highest round ratio, when there were rounds. */
const spread = (row: Row) =>
  row.rounds
    ? `${fixed(Math.min(...row.rounds.map(roundRatio)))}-${fixed(Math.max(...row.rounds.map(roundRatio)))}`
    : '';

export interface TargetCheck {
  target: string;
  measured: string;
  ok: boolean;
}

const percent = (share: number) => `${fixed(share * 100, 1)}%`;

/** The checks one row answers, by its target kind. */
function rowChecks(row: Row, connections: number): TargetCheck[] {
  const where = `${row.title} (size ${row.size}${row.build ? `, ${row.build}` : ''})`;
  const throughput = (minimum: number): TargetCheck => ({
    target: `${where}: >= ${Math.round(minimum * 100)}% of bare node:http req/s`,
    measured: `${percent(ratio(row))} (by CPU per request: ${percent(cpuRatio(row))})`,
    ok: ratio(row) >= minimum,
  });
  if (row.target === 'byId') return [throughput(TARGETS.byIdRatio)];
  if (row.target === 'heavy') return [throughput(TARGETS.heavyRatio)];
  if (row.target !== 'list') return [];
  const factor = cpuFactor(row);
  return [
    throughput(TARGETS.listRatio),
    {
      target: `${where}: server CPU per request <= ${TARGETS.listCpuFactor}x the bare server's`,
      measured: `${fixed(factor)}x (${Math.round(row.mock.cpuMicrosPerRequest)} / ${Math.round(row.baseline.cpuMicrosPerRequest)} us)`,
      ok: factor <= TARGETS.listCpuFactor,
    },
    {
      target: `${where}: p99 < ${TARGETS.listP99Ms} ms at ${connections} connections`,
      measured: `${row.mock.latencyP99} ms`,
      ok: row.mock.latencyP99 < TARGETS.listP99Ms,
    },
  ];
}

export function checkTargets(report: BenchReport): TargetCheck[] {
  const checks = report.rows.flatMap((row) => rowChecks(row, report.settings.connections));
  for (const { size, reason } of report.skipped)
    checks.push({
      target: `list pages at size ${size}`,
      measured: `not run: ${reason}`,
      ok: false,
    });
  for (const s of report.startup) {
    // The live size (85,000 parts) starts like a large scale, not like scale 1.
    const large = s.scale === 'live' || s.scale >= 1000;
    const limitMs = large ? TARGETS.scale1000StartupMs : TARGETS.startupMs;
    const where = `scale ${s.scale}${s.build ? ` (${s.build})` : ''}`;
    checks.push({
      target: `startup at ${where} < ${limitMs} ms to the first answer`,
      measured: `${s.firstAnswerMs} ms`,
      ok: s.firstAnswerMs < limitMs,
    });
    if (large && s.peakRssBytes !== undefined) {
      checks.push({
        target: `peak RSS at ${where} < ${mib(TARGETS.scale1000RssBytes)} MiB`,
        measured: `${mib(s.peakRssBytes)} MiB`,
        ok: s.peakRssBytes < TARGETS.scale1000RssBytes,
      });
    }
    checks.push({
      target: `SIGTERM at ${where}: exit 0 within 2 s`,
      measured: `exit ${s.exitCode} in ${s.shutdownMs} ms`,
      ok: s.exitCode === 0 && s.shutdownMs < 2000,
    });
  }
  if (report.coldStart) checks.push(...coldStartChecks(report.coldStart));
  if (report.sizes) checks.push(...sizeChecks(report.sizes));
  if (report.stateStore) checks.push(...storeChecks(report.stateStore));
  return checks;
}

const COLD_START_LABELS: Record<StartKind, string> = {
  bare: 'bare `node:http` (`node bench/bare-server.js`)',
  bin: 'repository, `node bin/web-data-mock.js`',
  installed: 'installed, `node node_modules/web-data-api-double/bin/web-data-mock.js`',
  npx: "installed, `npx web-data-mock` (npx's own start included)",
};

/** Each round's first-answer time (or CPU time) of a kind over the bare server's in the same round. */
function startFactors(
  report: ColdStartReport,
  kind: StartKind,
  of: 'firstAnswerMs' | 'firstAnswerCpuMs' = 'firstAnswerMs',
): number[] {
  return report.rounds
    .filter((r) => r[of]?.[kind] !== undefined && r[of]?.bare)
    .map((r) => r[of][kind]! / r[of].bare!);
}

/** The machine was busier than its cores at the start or the end of the cold starts. */
function loadedBy(report: ColdStartReport): number | undefined {
  const highest = Math.max(report.loadAverage.before[0], report.loadAverage.after[0]);
  return highest > report.cores ? highest : undefined;
}

const medianOr = (values: readonly number[]) => (values.length === 0 ? NaN : median(values));

/**
 * The cold-start targets, judged on the installed command run by node (the repository's when the
 * package was not installed). On a loaded machine each is reported, never counted as met; the CPU
 * figures beside them are what the load distorts least.
 */
export function coldStartChecks(report: ColdStartReport): TargetCheck[] {
  const kind: StartKind = report.rounds.some((r) => r.firstAnswerMs.installed !== undefined)
    ? 'installed'
    : 'bin';
  const load = loadedBy(report);
  const judge = (ok: boolean) => load === undefined && ok;
  const loadNote =
    load === undefined ? '' : `; not judged: load average ${fixed(load)} on ${report.cores} cores`;
  const factor = medianOr(startFactors(report, kind));
  const cpuFactor = medianOr(startFactors(report, kind, 'firstAnswerCpuMs'));
  const probes = report.rounds.map((r) => r.probe);
  const importMs = median(probes.map((p) => p.importMs));
  const createMs = median(probes.map((p) => p.createMs));
  return [
    {
      target: `cold start (${kind}): first answer within ${TARGETS.coldStartFactor}x a bare node:http server's, same rounds`,
      measured: `${fixed(factor)}x (CPU time ${fixed(cpuFactor)}x)${loadNote}`,
      ok: judge(factor <= TARGETS.coldStartFactor),
    },
    {
      target: `package root (${report.probed}) imported in < ${TARGETS.importMs} ms`,
      measured: `${Math.round(importMs)} ms (CPU ${Math.round(median(probes.map((p) => p.importCpuMs)))} ms)${loadNote}`,
      ok: judge(importMs < TARGETS.importMs),
    },
    {
      target: `createMockApp() ready within ${TARGETS.createMockAppMs} ms of the import`,
      measured: `${Math.round(createMs)} ms (CPU ${Math.round(median(probes.map((p) => p.createCpuMs)))} ms)${loadNote}`,
      ok: judge(createMs <= TARGETS.createMockAppMs),
    },
  ];
}

/** The cold-start tables: each kind beside the bare server, then import and in-process readiness. */
export function coldStartSection(report: ColdStartReport): string[] {
  const kinds = (Object.keys(COLD_START_LABELS) as StartKind[]).filter((kind) =>
    report.rounds.some((r) => r.firstAnswerMs[kind] !== undefined),
  );
  const n = report.rounds.length;
  const list = (values: readonly number[]) => values.map((v) => Math.round(v)).join(', ');
  const spreadOf = (factors: number[]) =>
    factors.length === 0
      ? 'n/a'
      : `${fixed(median(factors))} (${fixed(Math.min(...factors))}-${fixed(Math.max(...factors))})`;
  const startRow = (kind: StartKind) => {
    const samples = report.rounds.map((r) => r.firstAnswerMs[kind]!);
    const cpu = report.rounds.flatMap((r) => r.firstAnswerCpuMs?.[kind] ?? []);
    return `| ${COLD_START_LABELS[kind]} | ${Math.round(median(samples))} ms | ${list(samples)} | ${spreadOf(startFactors(report, kind))} | ${cpu.length === 0 ? 'n/a' : `${Math.round(median(cpu))} ms`} | ${spreadOf(startFactors(report, kind, 'firstAnswerCpuMs'))} |`;
  };
  type Probe = ColdStartReport['rounds'][number]['probe'];
  const probeRow = (label: string, wall: (p: Probe) => number, cpu?: (p: Probe) => number) => {
    const samples = report.rounds.map((r) => wall(r.probe));
    const cpuText = cpu ? `${Math.round(median(report.rounds.map((r) => cpu(r.probe))))} ms` : '';
    return `| ${label} | ${Math.round(median(samples))} ms | ${list(samples)} | ${cpuText} |`;
  };
  const load = (values: number[]) => values.map((v) => fixed(v)).join(' / ');
  return [
    `| cold start, spawn -> first 200 (median of ${n} rounds, the order reversed each round) | median | each round | / bare server, median of rounds (lowest-highest) | CPU time to the first 200, median | CPU / bare server's |`,
    '|---|---:|---|---:|---:|---:|',
    ...kinds.map(startRow),
    '',
    `| in a fresh process (package from the ${report.probed}) | median | each round | CPU time, median |`,
    '|---|---:|---|---:|',
    probeRow(
      "Node's own start, to the probe's first line",
      (p) => p.nodeStartMs,
      (p) => p.nodeStartCpuMs,
    ),
    probeRow(
      '`import` of the package root',
      (p) => p.importMs,
      (p) => p.importCpuMs,
    ),
    probeRow(
      '`createMockApp()` after the import',
      (p) => p.createMs,
      (p) => p.createCpuMs,
    ),
    probeRow('its first answer, in process', (p) => p.firstFetchMs),
    '',
    `Load average (1, 5, 15 min) before: ${load(report.loadAverage.before)}, after: ${load(report.loadAverage.after)}, on ${report.cores} cores${loadedBy(report) === undefined ? '.' : ': a loaded machine; the ratios to the bare server are indicative, and no target is judged.'}`,
    '',
  ];
}

/** Below this, a median change is a slowdown even when some round went the other way. */
export const NOISE = 0.05;

/**
 * Whether the compiled build keeps up, from its per-round changes against tsx (> 1: compiled
 * better): `yes` when the median is at least 1; `within noise` when it is within NOISE of 1 or a
 * round went the compiled build's way; `no` when every round and the median say it is slower.
 */
export function keepsUp(changes: readonly number[]): 'yes' | 'within noise' | 'no' {
  const middle = median(changes);
  if (middle >= 1) return 'yes';
  if (middle >= 1 - NOISE || changes.some((c) => c >= 1)) return 'within noise';
  return 'no';
}

/** Per-round changes of two rows measured in the same rounds (else one change of the medians). */
function changes(compiled: Row, tsx: Row, pick: (r: Round) => number): number[] {
  const a = pairs(compiled);
  const b = pairs(tsx);
  if (a.length !== b.length) return [median(a.map(pick)) / median(b.map(pick))];
  return a.map((round, k) => pick(round) / pick(b[k]));
}

const showChanges = (list: readonly number[]) =>
  list.length > 1
    ? `${fixed(median(list))} (${fixed(Math.min(...list))}-${fixed(Math.max(...list))})`
    : fixed(list[0]);
const showVerdict = (v: ReturnType<typeof keepsUp>) => (v === 'no' ? '**no**' : v);

/**
 * The compiled build against the tsx one, where the run measured both: per scenario, each build's
 * ratio to the bare baseline, and the two builds compared round by round (their runs in a round
 * are back to back, so the machine's drift cancels); the cold starts, sample by sample.
 */
export function buildComparison(report: BenchReport): string[] {
  const key = (r: Row) => `${r.scenario}|${r.size}`;
  const tsx = new Map(
    report.rows.filter((r) => (r.build ?? 'tsx') === 'tsx').map((r) => [key(r), r]),
  );
  const both = report.rows
    .filter((r) => r.build === 'compiled' && tsx.has(key(r)))
    .map((compiled) => ({ compiled, tsx: tsx.get(key(compiled))! }));
  const starts = report.startup.filter((s) => s.build === 'compiled');
  if (both.length === 0 && starts.length === 0) return [];
  const lines = [
    '| compiled vs tsx | size | tsx mock/baseline | compiled mock/baseline | compiled / tsx req/s, median (rounds) | at least as fast | mock CPU µs/req tsx / compiled | tsx / compiled CPU, median (rounds) | less CPU per request |',
    '|---|---:|---:|---:|---:|:---:|---:|---:|:---:|',
    ...both.map(({ compiled, tsx: t }) => {
      const speed = changes(compiled, t, (r) => r.mock.requestsPerSecond);
      const cpu = changes(compiled, t, (r) => 1 / r.mock.cpuMicrosPerRequest);
      return `| ${compiled.title} | ${compiled.size} | ${fixed(ratio(t))} | ${fixed(ratio(compiled))} | ${showChanges(speed)} | ${showVerdict(keepsUp(speed))} | ${Math.round(t.mock.cpuMicrosPerRequest)} / ${Math.round(compiled.mock.cpuMicrosPerRequest)} | ${showChanges(cpu)} | ${showVerdict(keepsUp(cpu))} |`;
    }),
  ];
  for (const c of starts) {
    const t = report.startup.find((s) => (s.build ?? 'tsx') === 'tsx' && s.scale === c.scale);
    if (!t) continue;
    const a = c.firstAnswerSamplesMs ?? [c.firstAnswerMs];
    const b = t.firstAnswerSamplesMs ?? [t.firstAnswerMs];
    const speed =
      a.length === b.length ? a.map((ms, k) => b[k] / ms) : [t.firstAnswerMs / c.firstAnswerMs];
    lines.push(
      `| startup to the first answer | ${c.scale} | ${t.firstAnswerMs} ms | ${c.firstAnswerMs} ms | ${showChanges(speed)} | ${showVerdict(keepsUp(speed))} | | | |`,
    );
  }
  return [...lines, ''];
}

function roundsNote(rounds: number | undefined): string {
  if (!rounds || rounds < 2) return '';
  return `, ${rounds} rounds per scenario (each build of the mock, then the baseline, back to back, the builds' order alternating; ratios are the median of the rounds' own ratios, the later rounds after a shorter warm-up)`;
}

export function toMarkdown(report: BenchReport): string {
  const { machine: m, settings } = report;
  const lines = [
    `### Benchmark (${report.date.slice(0, 10)})`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}. autocannon in its own process, ${settings.connections} connections, ${settings.durationSeconds} s per run after a ${settings.warmupSeconds} s warm-up${roundsNote(settings.rounds)}; mock and baseline each in their own process. Baseline: bare \`node:http\` serving the very bytes and headers the mock sent for the scenario.`,
    '',
    '| scenario | build | size | body bytes | mock req/s | baseline req/s | **mock/baseline** | ratio per round (lowest-highest) | mock p50 / p99 ms | baseline p50 / p99 ms | server CPU µs/req mock / baseline | CPU ratio | mock peak RSS MiB | baseline peak RSS MiB | non-2xx |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...report.rows.map(
      (r) =>
        `| ${r.title} | ${r.build ?? 'tsx'} | ${r.size} | ${r.responseBytes} | ${Math.round(r.mock.requestsPerSecond)} | ${Math.round(r.baseline.requestsPerSecond)} | **${fixed(ratio(r))}** | ${spread(r)} | ${r.mock.latencyP50} / ${r.mock.latencyP99} | ${r.baseline.latencyP50} / ${r.baseline.latencyP99} | ${Math.round(r.mock.cpuMicrosPerRequest)} / ${Math.round(r.baseline.cpuMicrosPerRequest)} | ${fixed(cpuRatio(r))} | ${mib(r.mock.peakRssBytes)} | ${mib(r.baseline.peakRssBytes)} | ${r.mock.non2xx + r.mock.errors} |`,
    ),
    '',
  ];
  if (report.startup.length > 0) {
    lines.push(
      '| startup (CLI, `--port 0`) | build | spawn -> first 200 | app build (banner) | peak RSS MiB | SIGTERM -> exit |',
      '|---|---|---:|---:|---:|---:|',
      ...report.startup.map(
        (s) =>
          `| scale ${s.scale} | ${s.build ?? 'tsx'} | ${s.firstAnswerMs} ms | ${s.bannerReadyMs ?? '?'} ms | ${s.peakRssBytes === undefined ? 'n/a' : mib(s.peakRssBytes)} | exit ${s.exitCode} in ${s.shutdownMs} ms |`,
      ),
      '',
    );
  }
  if (report.coldStart) lines.push(...coldStartSection(report.coldStart));
  lines.push(...buildComparison(report));
  if (report.stateStore) lines.push(report.stateStore.section);
  const checks = checkTargets(report);
  const met = checks.filter((c) => c.ok).length;
  lines.push(
    `Targets met: ${met} of ${checks.length}.`,
    '',
    '| target | measured | met |',
    '|---|---:|:---:|',
    ...checks.map((c) => `| ${c.target} | ${c.measured} | ${c.ok ? 'yes' : '**no**'} |`),
    '',
  );
  return lines.join('\n');
}

/** Writes `bench/results/latest.md` and `latest.json`; returns the Markdown. */
export function writeReport(report: BenchReport): string {
  const markdown = toMarkdown(report);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}latest.md`, markdown);
  writeFileSync(
    `${RESULTS_DIR}latest.json`,
    `${JSON.stringify({ ...report, targets: checkTargets(report) }, null, 2)}\n`,
  );
  return markdown;
}
