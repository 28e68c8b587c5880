/**
 * @module bench/ipc
 * The few messages the bench's orchestrator exchanges with its child processes (the mock, the bare
 * baseline), and the memory bookkeeping both children share. Each server runs in its own process so
 * its RSS is its own, not the load generator's or the orchestrator's.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { childScript, type Build } from './builds.js';

/** How often a child samples its own RSS: often enough to see a spike inside a load run, rarely enough that reading /proc (about 4% of a busy mock at 50 ms) stays out of the CPU per request. */
const PEAK_SAMPLE_MS = 250;
const BYTES_PER_KIB = 1024;

/** Memory (bytes) and CPU of one server process. */
export interface MemoryStats {
  rss: number;
  /** Highest RSS sampled since the last `reset-peak`. */
  peakRss: number;
  /** Highest RSS of the whole process life (getrusage). */
  lifetimeMaxRss: number;
  heapUsed: number;
  /** CPU time (user + system) the process used since the last `reset-peak`, in microseconds. */
  cpuMicrosSinceReset: number;
  /** True when the numbers were taken right after a full GC (`--expose-gc`). */
  afterGc: boolean;
}

/** A response captured from the mock, for the baseline to serve byte for byte. */
export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
}

export type ToChild =
  | { type: 'stats'; gc?: boolean }
  | { type: 'reset-peak' }
  | { type: 'serve'; response: CapturedResponse };

export type FromChild =
  | { type: 'ready'; url: string; info: Record<string, unknown> }
  | { type: 'stats'; stats: MemoryStats }
  | { type: 'serving' }
  | { type: 'failed'; message: string };

/**
 * Child side: keeps a running RSS peak (and a CPU mark) and answers `stats` / `reset-peak`. `onMessage` gets every
 * other message. Returns a `send` for the child's own messages.
 */
export function serveParent(
  onMessage: (message: ToChild) => void = () => {},
): (message: FromChild) => void {
  let peak = process.memoryUsage.rss();
  let cpuAtReset = process.cpuUsage();
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, PEAK_SAMPLE_MS).unref();
  const send = (message: FromChild) => process.send?.(message);
  process.on('message', (raw) => {
    const message = raw as ToChild;
    if (message.type === 'reset-peak') {
      peak = process.memoryUsage.rss();
      cpuAtReset = process.cpuUsage();
      return;
    }
    if (message.type !== 'stats') return onMessage(message);
    const gc = (globalThis as { gc?: () => void }).gc;
    if (message.gc && gc) gc();
    const { rss, heapUsed } = process.memoryUsage();
    const cpu = process.cpuUsage(cpuAtReset);
    peak = Math.max(peak, rss);
    const stats: MemoryStats = {
      rss,
      peakRss: peak,
      lifetimeMaxRss: process.resourceUsage().maxRSS * BYTES_PER_KIB,
      heapUsed,
      cpuMicrosSinceReset: cpu.user + cpu.system,
      afterGc: Boolean(message.gc && gc),
    };
    send({ type: 'stats', stats });
  });
  // The orchestrator going away must not leave a server behind.
  process.on('disconnect', () => process.exit(0));
  return send;
}

/** Parent side: one child (TypeScript through tsx, or its compiled JavaScript) with an IPC channel. */
export class Child {
  readonly process: ChildProcess;

  constructor(
    script: string,
    args: string[] = [],
    options: { execArgv?: string[]; label?: string; build?: Build } = {},
  ) {
    const child = childScript(script, options.build ?? 'tsx');
    this.process = fork(child.path, args, {
      execArgv: [...(child.tsx ? ['--import', 'tsx'] : []), ...(options.execArgv ?? [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  }

  get pid(): number {
    return this.process.pid!;
  }

  send(message: ToChild): void {
    this.process.send(message);
  }

  /** The next message of this type (rejects on a `failed` message or if the child exits first). */
  next<T extends FromChild['type']>(type: T): Promise<Extract<FromChild, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onMessage = (raw: unknown) => {
        const message = raw as FromChild;
        if (message.type === 'failed') finish(() => reject(new Error(message.message)));
        else if (message.type === type)
          finish(() => resolve(message as Extract<FromChild, { type: T }>));
      };
      const onExit = (code: number | null) =>
        finish(() => reject(new Error(`child exited (${code}) before sending "${type}"`)));
      const finish = (settle: () => void) => {
        this.process.off('message', onMessage);
        this.process.off('exit', onExit);
        settle();
      };
      this.process.on('message', onMessage);
      this.process.once('exit', onExit);
    });
  }

  async stats(gc = false): Promise<MemoryStats> {
    const reply = this.next('stats');
    this.send({ type: 'stats', gc });
    return (await reply).stats;
  }

  /** Ends the child and waits for it. */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = new Promise((resolve) => this.process.once('exit', resolve));
    this.process.kill('SIGTERM');
    await exited;
  }
}

/** Bytes to MiB with one decimal, for tables. */
export function mib(bytes: number): number {
  return Math.round((bytes / BYTES_PER_KIB / BYTES_PER_KIB) * 10) / 10;
}
