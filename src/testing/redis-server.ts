/**
 * @module testing/redis-server
 * A real redis-server for the tests: started on a free port with persistence off, stopped and
 * started again on the same port (the failover tests), killed at the end. Where redis-server is
 * not installed the Redis tests are skipped with a warning, unless CI_REQUIRE_REDIS=1 (CI), where
 * its absence is a failure.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port.js';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? 'redis-server';

/** Whether the Redis tests can run; throws when CI requires them and redis-server is missing. */
export function redisAvailable(): boolean {
  const found = spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0;
  if (found) return true;
  if (process.env.CI_REQUIRE_REDIS === '1')
    throw new Error(`${REDIS_SERVER} not found and CI_REQUIRE_REDIS=1: install redis-server`);
  console.warn(`[tests] ${REDIS_SERVER} not found: the shared-state (Redis) tests are skipped`);
  return false;
}

export class TestRedis {
  #child: ChildProcess | undefined;
  private constructor(readonly port: number) {}

  static async start(): Promise<TestRedis> {
    const redis = new TestRedis(await freePort());
    await redis.resume();
    return redis;
  }

  /** The running redis-server's process id (the bench reads its CPU time). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  /** (Re)starts redis-server on this port, empty, and waits until it accepts connections. */
  async resume(): Promise<void> {
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => reject(new Error(`redis-server did not start: ${out}`)),
        10_000,
      );
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${out}`));
      });
    });
  }

  /** Kills redis-server (SIGKILL: no goodbye to clients) and waits for it to be gone. */
  async stop(): Promise<void> {
    const child = this.#child;
    this.#child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
