/**
 * @module detach
 * A mock that outlives the step that started it (`web-data-mock --detach`), and the step that ends
 * it (`web-data-mock stop --port N`), for CI jobs whose steps are separate shells.
 *
 * `--detach` starts the same command again in its own session (no parent to outlive, no terminal
 * to hang up), its output in a log file, waits until it answers `/healthz`, prints its base URL
 * and exits 0 (2, with the mock's own words, when it cannot start). The detached mock writes
 * `<port>.json` (pid, URL, log) into a private runtime folder of this user's and watches that
 * file: `stop` removes it, and the mock closes as on SIGTERM. No signal is sent to any pid, so a
 * stale file (a mock that crashed, its pid reused) can never end an unrelated process; `stop` then
 * waits until the port no longer answers and the pid is gone.
 *
 * The runtime folder is `$XDG_RUNTIME_DIR/web-data-mock`, else `<tmpdir>/web-data-mock-<uid>`,
 * mode 0700, and refused when it is a symlink or another user's (spec/DECISIONS.md 108).
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { readBoundedBytes } from '../../files/read-bounded.js';
import { writeFileSafely } from '../../files/write-safe.js';
import { withDeadline } from '../../net/deadline.js';
import { UsageError } from '../../usage.js';

/** The variable that tells the started command it is the detached mock (its value: the launch's id). */
export const DETACHED_ENV = 'WEB_DATA_MOCK_DETACHED';
/** How long `--detach` waits for the mock to answer (a `--scale live` dataset takes a while). */
const START_TIMEOUT_MS = 120_000;
/** How long `stop` waits for the mock to finish its in-flight requests and exit. */
const STOP_TIMEOUT_MS = 20_000;
/** How often the detached mock looks at its file, and the commands at the mock. */
export const POLL_MS = 200;

/** What the detached mock writes about itself. */
export interface DetachedRecord {
  /** The id `--detach` gave it, so the launcher finds the record whatever port it got. */
  launch: string;
  pid: number;
  port: number;
  url: string;
  origin: string;
  log: string;
}

/** This user's private folder for the detached mocks' files, made on first use. */
export function runtimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const uid = process.getuid?.() ?? 0;
  const dir = env.XDG_RUNTIME_DIR
    ? join(env.XDG_RUNTIME_DIR, 'web-data-mock')
    : join(tmpdir(), `web-data-mock-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || (process.getuid && stat.uid !== uid) || (stat.mode & 0o077) !== 0)
    throw new Error(
      `${dir} is not a private folder of this user's (a symlink, another user's, or open to others): refusing to keep the detached mock's files there`,
    );
  return dir;
}

const recordPath = (port: number, env?: NodeJS.ProcessEnv) => join(runtimeDir(env), `${port}.json`);

function isRecord(value: unknown): value is DetachedRecord {
  const r = value as Partial<DetachedRecord> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    typeof r.launch === 'string' &&
    Number.isInteger(r.pid) &&
    Number.isInteger(r.port) &&
    typeof r.url === 'string' &&
    typeof r.origin === 'string' &&
    /^http:\/\/[^/]+$/.test(r.origin) &&
    typeof r.log === 'string'
  );
}

/** The detached mock's record of `port`, or undefined when there is none (or it is not ours). */
export function readRecord(port: number, env?: NodeJS.ProcessEnv): DetachedRecord | undefined {
  return readRecordFile(recordPath(port, env));
}

function readRecordFile(path: string): DetachedRecord | undefined {
  if (!existsSync(path) || !lstatSync(path).isFile()) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * In the detached mock, once it listens: writes its record and calls `stop` when the file goes
 * (`web-data-mock stop`). Returns what removes the record when the mock closes for another reason.
 */
export function announceDetached(
  record: Pick<DetachedRecord, 'port' | 'url' | 'origin'>,
  stop: () => void,
): () => void {
  const path = recordPath(record.port);
  const full: DetachedRecord = {
    launch: process.env[DETACHED_ENV] ?? '',
    pid: process.pid,
    log: process.env[`${DETACHED_ENV}_LOG`] ?? '',
    ...record,
  };
  writeFileSafely(path, `${JSON.stringify(full)}\n`);
  const watch = setInterval(() => {
    if (readRecord(record.port)?.pid !== process.pid) {
      clearInterval(watch);
      stop();
    }
  }, POLL_MS);
  watch.unref();
  return () => {
    clearInterval(watch);
    if (readRecord(record.port)?.pid === process.pid) rmSync(path, { force: true });
  };
}

/** How long one `/healthz` probe may take. */
const HEALTH_TIMEOUT_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether `origin` answers `/healthz` within 2 s, under a deadline that holds the process open
 * (`withDeadline`: a mock closing under the probe once made `stop` end with exit 13).
 */
async function answers(origin: string): Promise<boolean> {
  try {
    return await withDeadline(HEALTH_TIMEOUT_MS, async (signal) => {
      const res = await fetch(`${origin}/healthz`, { signal });
      await res.body?.cancel();
      return res.ok;
    });
  } catch {
    return false;
  }
}

/** The most of `/proc/<pid>/environ` (Linux's copy of a process's starting environment) read. */
const ENVIRON_BYTES = 1024 * 1024;

/**
 * Whether `record.pid` is still the mock this record names: the process's starting environment
 * carries the launch's id (`WEB_DATA_MOCK_DETACHED`). Undefined when that cannot be read (no
 * /proc, another user's process, a record without an id): then the pid is given the benefit of
 * the doubt, for half of `stop`'s wait.
 */
export function stillTheMock(record: Pick<DetachedRecord, 'pid' | 'launch'>): boolean | undefined {
  if (!record.launch) return undefined;
  try {
    const environ = readBoundedBytes(`/proc/${record.pid}/environ`, { maxBytes: ENVIRON_BYTES });
    return environ.toString('latin1').split('\0').includes(`${DETACHED_ENV}=${record.launch}`);
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The record the mock of this launch wrote, once it listens. */
function launched(dir: string, launch: string): DetachedRecord | undefined {
  for (const name of readdirSync(dir))
    if (/^\d+\.json$/.test(name)) {
      const record = readRecordFile(join(dir, name));
      if (record?.launch === launch) return record;
    }
  return undefined;
}

/** The log's last lines, for a mock that could not start. */
function tail(log: string): string {
  const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
  const lines = text.trim().split('\n');
  // The mock's own pointer to --help: the launcher adds one of its own.
  return (
    lines
      .filter((line) => line !== '(see --help)')
      .slice(-6)
      .join('\n') || '(no output)'
  );
}

/**
 * `--detach`: starts `script` with `args` (the same flags, without `--detach`) in its own session
 * and resolves with its base URL once it answers; throws a UsageError (exit 2) with the mock's own
 * message when it exits first or does not answer in time.
 */
export async function startDetached(script: string, args: readonly string[]): Promise<string> {
  const dir = runtimeDir();
  const launch = randomBytes(8).toString('hex');
  const log = join(dir, `mock-${launch}.log`);
  const fd = openSync(log, 'wx', 0o600);
  const child = spawn(process.execPath, [...process.execArgv, script, ...args], {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, [DETACHED_ENV]: launch, [`${DETACHED_ENV}_LOG`]: log },
  });
  closeSync(fd);
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await sleep(POLL_MS);
    if (exited !== undefined)
      throw new UsageError(`the mock could not start (exit ${exited}):\n${tail(log)}`);
    const record = launched(dir, launch);
    if (record && (await answers(record.origin))) {
      child.unref();
      return record.url;
    }
  }
  child.kill();
  throw new UsageError(
    `the mock did not answer within ${START_TIMEOUT_MS / 1000} s:\n${tail(log)}`,
  );
}

/**
 * `stop --port N`: asks the detached mock on `port` to close (removes its record) and resolves
 * once the port no longer answers and its process is gone. Throws when there is no detached mock
 * on that port (exit 1) or it is still there after the wait.
 */
export async function stopDetached(port: number): Promise<DetachedRecord> {
  const record = readRecord(port);
  if (!record)
    throw new Error(
      `no detached mock on port ${port} (no record in ${runtimeDir()}; a mock started without --detach ends with its shell or Ctrl-C)`,
    );
  rmSync(recordPath(port), { force: true });
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const quiet = !(await answers(record.origin));
    // A stale record (the mock crashed, its pid since reused): the port is quiet, and the pid is
    // not waited on at all when it is known to be another process, else not for long.
    const gone = !alive(record.pid) || stillTheMock(record) === false;
    if (quiet && (gone || Date.now() > deadline - STOP_TIMEOUT_MS / 2)) return record;
    await sleep(POLL_MS);
  }
  throw new Error(
    `the mock on port ${port} (pid ${record.pid}) is still running after ${STOP_TIMEOUT_MS / 1000} s; its log: ${record.log}`,
  );
}
