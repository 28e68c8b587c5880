/**
 * @module bench/startup
 * Startup and shutdown of the real CLI, as a user runs it: spawn `src/server/cli/cli.ts --port 0`, read the
 * URL from its banner, time spawn -> first answered request, read the process's peak RSS, then
 * signal it and time the exit. Used by `bench/run.ts`, by the shutdown test, and on its own:
 * `npx tsx bench/startup.ts [--scale 1000]`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseBuilds, type Build } from './builds.js';
import { mib } from './ipc.js';
import { median } from './stats.js';

const CLI = fileURLToPath(new URL('../src/server/cli/cli.ts', import.meta.url));
/** The installed package's command: compiled code, no loader. */
const BIN = fileURLToPath(new URL('../bin/web-data-mock.js', import.meta.url));
const REPO = fileURLToPath(new URL('..', import.meta.url));
/** The key the bench sends (a public demo key; never printed). */
export const BENCH_KEY = 'demo-unlimited-key';
const POLL_MS = 5;
const BANNER_URL = /(http:\/\/\S+?\/web-data\/v1)\s*$/m;
const READY_IN = /ready in (\d+) ms/;
const BYTES_PER_KIB = 1024;

export interface LaunchedCli {
  child: ChildProcess;
  url: string;
  origin: string;
  port: number;
  /** performance.now() just before spawn. */
  spawnedAt: number;
  /** The CLI's own "ready in N ms" (app build, after module loading). */
  bannerReadyMs: number | undefined;
  output: () => string;
}

/** Spawns the CLI on an ephemeral port and resolves once its banner names the URL. */
export function launchCli(
  args: string[] = [],
  timeoutMs = 60_000,
  build: Build = 'tsx',
): Promise<LaunchedCli> {
  const entry = build === 'tsx' ? ['--import', 'tsx', CLI] : [BIN];
  return launch(process.execPath, [...entry, '--port', '0', ...args], { timeoutMs });
}

/**
 * Spawns any server command that prints a banner line ending in its `.../web-data/v1` URL (the
 * mock's CLI, `npx web-data-mock`, the bare yardstick) and resolves once it has.
 */
export function launch(
  command: string,
  args: string[],
  {
    cwd = REPO,
    timeoutMs = 60_000,
    detached = false,
  }: {
    cwd?: string;
    timeoutMs?: number;
    /** Its own process group, for a command whose server is a grandchild (npx): see stopGroup. */
    detached?: boolean;
  } = {},
): Promise<LaunchedCli> {
  const spawnedAt = performance.now();
  const child = spawn(command, args, { cwd, detached, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`no banner within ${timeoutMs} ms; output:\n${out}`)),
      timeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const early = (code: number | null) =>
      fail(new Error(`${command} exited (${code}) before its banner; output:\n${out}`));
    child.once('exit', early);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = BANNER_URL.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.off('exit', early);
      const url = match[1];
      const origin = new URL(url).origin;
      resolve({
        child,
        url,
        origin,
        port: Number(new URL(url).port),
        spawnedAt,
        bannerReadyMs: Number(READY_IN.exec(out)?.[1]) || undefined,
        output: () => out,
      });
    });
  });
}

/** Polls until `url` answers 200 with the bench key; resolves with performance.now() of that answer. */
export async function firstAnswer(url: string, timeoutMs = 60_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url, { headers: { 'x-api-key': BENCH_KEY } });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now();
    } catch {
      // Not listening yet: keep polling until the deadline.
    }
    if (performance.now() > deadline) throw new Error(`no 200 from ${url} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Peak resident set size of a live process (Linux `VmHWM`), in bytes; undefined elsewhere. */
export function peakRssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = /VmHWM:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kib === undefined ? undefined : Number(kib) * BYTES_PER_KIB;
  } catch {
    return undefined;
  }
}

/** Sends a signal and resolves with the exit code and how long the exit took. */
export function stopCli(
  child: ChildProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    child.once('exit', (code, by) =>
      resolve({ code, signal: by, ms: Math.round(performance.now() - started) }),
    );
    child.kill(signal);
  });
}

/**
 * Signals a whole process group started with `detached` and resolves when its leader exits: npx
 * does not pass SIGTERM on to the server it started, which would outlive it.
 */
export function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    process.kill(-child.pid!, signal);
  });
}

/** True when a TCP listener can bind this port on the loopback right now. */
export function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });
}

export interface StartupResult {
  /** A scale factor, or `live` (the live catalogue's size). */
  scale: number | 'live';
  /** tsx (`node --import tsx src/server/cli/cli.ts`) or compiled (`bin/web-data-mock.js`); tsx when absent. */
  build?: Build;
  /** Spawn of `node src/server/cli/cli.ts` -> first 200 on the products list (includes Node and tsx start). */
  firstAnswerMs: number;
  /** Each cold start's first-answer time, when the result combines several (combineStartups). */
  firstAnswerSamplesMs?: number[];
  bannerReadyMs: number | undefined;
  peakRssBytes: number | undefined;
  shutdownMs: number;
  exitCode: number | null;
}

/**
 * Several cold starts of one build at one scale as one result: the median times, the highest peak
 * RSS and shutdown time, the first failed exit code if any; every first-answer time kept.
 */
export function combineStartups(samples: readonly StartupResult[]): StartupResult {
  const mid = (pick: (s: StartupResult) => number | undefined) => {
    const known = samples.map(pick).filter((n): n is number => n !== undefined);
    return known.length === 0 ? undefined : median(known);
  };
  const rss = samples.map((s) => s.peakRssBytes).filter((n): n is number => n !== undefined);
  return {
    scale: samples[0].scale,
    build: samples[0].build,
    firstAnswerMs: Math.round(mid((s) => s.firstAnswerMs)!),
    firstAnswerSamplesMs: samples.map((s) => s.firstAnswerMs),
    bannerReadyMs: mid((s) => s.bannerReadyMs),
    peakRssBytes: rss.length === 0 ? undefined : Math.max(...rss),
    shutdownMs: Math.max(...samples.map((s) => s.shutdownMs)),
    exitCode: samples.find((s) => s.exitCode !== 0)?.exitCode ?? 0,
  };
}

/** One cold start of the CLI at a scale, measured end to end. */
export async function probeStartup(
  scale: number | 'live',
  build: Build = 'tsx',
): Promise<StartupResult> {
  const launched = await launchCli(['--scale', String(scale)], undefined, build);
  try {
    const answeredAt = await firstAnswer(`${launched.url}/products?limit=10`);
    const peakRssBytes = peakRssOf(launched.child.pid!);
    const stopped = await stopCli(launched.child);
    return {
      scale,
      build,
      firstAnswerMs: Math.round(answeredAt - launched.spawnedAt),
      bannerReadyMs: launched.bannerReadyMs,
      peakRssBytes,
      shutdownMs: stopped.ms,
      exitCode: stopped.code,
    };
  } finally {
    if (launched.child.exitCode === null) launched.child.kill('SIGKILL');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: { scale: { type: 'string', default: '1' }, build: { type: 'string', default: 'tsx' } },
  });
  const result = await probeStartup(
    values.scale === 'live' ? 'live' : Number(values.scale),
    parseBuilds(values.build)[0],
  );
  const rss = result.peakRssBytes === undefined ? 'n/a' : `${mib(result.peakRssBytes)} MiB`;
  process.stdout.write(
    `scale ${result.scale}: first answer ${result.firstAnswerMs} ms after spawn (app ready in ${result.bannerReadyMs} ms), peak RSS ${rss}, SIGTERM exit ${result.exitCode} in ${result.shutdownMs} ms\n`,
  );
}
