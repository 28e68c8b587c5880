/**
 * @module bench/cold-start
 * How fast the mock starts against how fast Node itself starts a server, in the same rounds:
 * spawn -> first 200 of a bare `node:http` server (`bare-server.js`), of the repository's
 * `bin/web-data-mock.js`, of the packed and installed package's command run by node, and of
 * `npx web-data-mock` in that project (npx's own start included); then, in a fresh process,
 * importing the package root and `createMockApp()` after it (`import-probe.js`). Each round runs
 * every kind once, the order reversed from one round to the next, so each round's ratios to the
 * bare server share the machine's state. The load average is kept: a loaded run is reported, not
 * judged. Used by `bench/run.ts`, and on its own by `bench/cold-start-cli.ts`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { firstAnswer, launch, stopCli, stopGroup } from './startup.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('..', import.meta.url));
const BARE = fileURLToPath(new URL('./bare-server.js', import.meta.url));
const PROBE = fileURLToPath(new URL('./import-probe.js', import.meta.url));
const PACKAGE = 'web-data-api-double';
/** `/proc/<pid>/stat` counts CPU time in clock ticks: 100 a second on Linux (USER_HZ). */
const CLOCK_TICKS_PER_SECOND = 100;
/** Ten minutes: packing builds the package, and installing on a busy machine is slow. */
const INSTALL_TIMEOUT_MS = 600_000;

/** What is started: the yardstick, the repository's command, the installed command by node, and by npx. */
export const START_KINDS = ['bare', 'bin', 'installed', 'npx'] as const;
export type StartKind = (typeof START_KINDS)[number];

export interface ImportProbe {
  /** Node's own start, to the probe's first line. */
  nodeStartMs: number;
  importMs: number;
  /** `createMockApp()` after the import, until it resolves. */
  createMs: number;
  firstFetchMs: number;
  /** CPU time (user + system) of the same three steps: robust to a busy machine where wall time is not. */
  nodeStartCpuMs: number;
  importCpuMs: number;
  createCpuMs: number;
}

export interface ColdStartRound {
  /** Spawn -> first 200 of each kind measured in this round. */
  firstAnswerMs: Partial<Record<StartKind, number>>;
  /** CPU time the started process had used at its first 200 (Linux; not for npx, whose process is npm's). */
  firstAnswerCpuMs: Partial<Record<StartKind, number>>;
  probe: ImportProbe;
}

export interface ColdStartReport {
  rounds: ColdStartRound[];
  /** 1-, 5- and 15-minute load averages before the first round and after the last. */
  loadAverage: { before: number[]; after: number[] };
  cores: number;
  /** Where the import probe's package came from: the installed tarball, or the repository's dist/. */
  probed: 'installed' | 'repository';
}

/** Packs the repository (`prepare` builds dist/) and installs it, production dependencies only, into a new project. */
export async function installPacked(): Promise<string> {
  const project = mkdtempSync(join(tmpdir(), 'web-data-cold-start-'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'cold-start', private: true, type: 'module' }),
  );
  const options = { cwd: project, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 };
  const packed = await run(
    'npm',
    ['pack', '--silent', '--pack-destination', project, REPO],
    options,
  );
  const tarball = packed.stdout.trim().split('\n').at(-1)!;
  await run(
    'npm',
    ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', `./${tarball}`],
    options,
  );
  return project;
}

/** The command that starts one kind, and where. */
function commandOf(kind: StartKind, project: string | undefined) {
  const port = ['--port', '0'];
  switch (kind) {
    case 'bare':
      return { command: process.execPath, args: [BARE, ...port], cwd: REPO };
    case 'bin':
      return { command: process.execPath, args: [join(REPO, 'bin', 'web-data-mock.js'), ...port] };
    case 'installed':
      return {
        command: process.execPath,
        args: [join(project!, 'node_modules', PACKAGE, 'bin', 'web-data-mock.js'), ...port],
        cwd: project,
      };
    case 'npx':
      return { command: 'npx', args: ['--no-install', 'web-data-mock', ...port], cwd: project };
  }
}

/** CPU time (user + system) a live process has used, in ms, from `/proc` (Linux; undefined elsewhere). */
function cpuMsOf(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces, inside parentheses): utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** One cold start: spawn, poll until the first 200 (wall time, and the process's CPU time then), stop. */
async function startOnce(
  kind: StartKind,
  project: string | undefined,
): Promise<{ ms: number; cpuMs: number | undefined }> {
  const { command, args, cwd } = commandOf(kind, project);
  const group = kind === 'npx';
  const launched = await launch(command, args, { cwd, detached: group });
  try {
    const answeredAt = await firstAnswer(`${launched.url}/products?limit=10`);
    const cpuMs = kind === 'npx' ? undefined : cpuMsOf(launched.child.pid!);
    return { ms: Math.round(answeredAt - launched.spawnedAt), cpuMs };
  } finally {
    await (group ? stopGroup(launched.child) : stopCli(launched.child));
  }
}

async function probeImport(entry: string): Promise<ImportProbe> {
  const { stdout } = await run(process.execPath, [PROBE, pathToFileURL(entry).href], {
    cwd: REPO,
  });
  const probe = JSON.parse(stdout) as ImportProbe & { status: number };
  if (probe.status !== 200) throw new Error(`createMockApp's first answer was ${probe.status}`);
  const round = (ms: number) => Math.round(ms);
  return {
    nodeStartMs: round(probe.nodeStartMs),
    importMs: round(probe.importMs),
    createMs: round(probe.createMs),
    firstFetchMs: round(probe.firstFetchMs),
    nodeStartCpuMs: round(probe.nodeStartCpuMs),
    importCpuMs: round(probe.importCpuMs),
    createCpuMs: round(probe.createCpuMs),
  };
}

/** Longest wait for the machine to settle before the cold starts, and how often to look. */
const SETTLE_MAX_MS = 180_000;
const SETTLE_POLL_MS = 2_000;

/**
 * Waits (bounded) until the 1-minute load average is below three quarters of the cores: in
 * `npm run bench` the cold starts follow minutes of load, and the average lags it by about a
 * minute, so without the wait they would run on a machine still counted as loaded (and judged not).
 */
async function settle(log: (line: string) => void): Promise<void> {
  const quiet = cpus().length * 0.75;
  const started = Date.now();
  if (loadavg()[0] < quiet) return;
  log(`waiting for the load average (${loadavg()[0].toFixed(2)}) to fall below ${quiet}`);
  while (loadavg()[0] >= quiet && Date.now() - started < SETTLE_MAX_MS)
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  log(
    `load average ${loadavg()[0].toFixed(2)} after ${Math.round((Date.now() - started) / 1000)} s`,
  );
}

/** `rounds` rounds of every kind (the installed ones only with a project), the order reversed each round. */
export async function measureColdStarts(
  rounds: number,
  project: string | undefined,
  log: (line: string) => void = () => {},
): Promise<ColdStartReport> {
  const kinds = START_KINDS.filter((k) => project || (k !== 'installed' && k !== 'npx'));
  const entry = project
    ? join(project, 'node_modules', PACKAGE, 'dist', 'src', 'index.js')
    : join(REPO, 'dist', 'src', 'index.js');
  if (!existsSync(entry)) throw new Error(`no ${entry}: build the package first (npm run build)`);
  await settle(log);
  const before = loadavg();
  const measured: ColdStartRound[] = [];
  for (let k = 0; k < rounds; k++) {
    const order = k % 2 === 0 ? kinds : [...kinds].reverse();
    const firstAnswerMs: ColdStartRound['firstAnswerMs'] = {};
    const firstAnswerCpuMs: ColdStartRound['firstAnswerCpuMs'] = {};
    for (const kind of order) {
      const { ms, cpuMs } = await startOnce(kind, project);
      firstAnswerMs[kind] = ms;
      if (cpuMs !== undefined) firstAnswerCpuMs[kind] = cpuMs;
    }
    const probe = await probeImport(entry);
    measured.push({ firstAnswerMs, firstAnswerCpuMs, probe });
    log(
      `cold start round ${k + 1} of ${rounds}: ${kinds.map((kind) => `${kind} ${firstAnswerMs[kind]} ms`).join(', ')}; import ${probe.importMs} ms, createMockApp ${probe.createMs} ms`,
    );
  }
  return {
    rounds: measured,
    loadAverage: { before, after: loadavg() },
    cores: cpus().length,
    probed: project ? 'installed' : 'repository',
  };
}
