/**
 * @module bench/load
 * Parent side of the load generator: spawns `bench/load-worker.ts` in its own process with one
 * `LoadSpec`, calls back when the warm-up is over (so the server's RSS peak can be reset), and
 * resolves with the measured run's figures.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface LoadSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Send exactly this many requests instead of running for a duration (the soak). */
  amount?: number;
  /** Replace `x-api-key` with a never-seen key on every request (the distinct-key flood). */
  distinctKeys?: boolean;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds. */
  latencyP50: number;
  latencyP99: number;
  latencyMean: number;
  latencyMax: number;
  requests: number;
  non2xx: number;
  statusCodes: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
  durationSeconds: number;
  bytesPerSecond: number;
}

const WORKER = fileURLToPath(new URL('./load-worker.ts', import.meta.url));

export function runLoad(spec: LoadSpec, onWarmed: () => void = () => {}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let result: LoadResult | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      let message: { phase?: string; result?: LoadResult };
      try {
        message = JSON.parse(line) as typeof message;
      } catch {
        process.stderr.write(`[load] ${line}\n`);
        return;
      }
      if (message.phase === 'warmed') onWarmed();
      if (message.phase === 'done') result = message.result;
    });
    child.once('error', reject);
    child.once('close', (code) =>
      result && code === 0
        ? resolve(result)
        : reject(new Error(`load worker exited with ${code} and no result`)),
    );
  });
}
