/**
 * @module workers
 * `--workers N`: the primary process checks that the shared store answers (so a wrong URL is one
 * usage error, not N), then starts N workers with the same arguments; they share one port
 * (node:cluster hands connections out) and one state (Redis). The primary passes SIGINT/SIGTERM
 * on and exits when the workers have; a worker that dies is reported, not restarted (a crash
 * loop should be seen, and a balancer in front of replicas is the place for restarts).
 */
import cluster from 'node:cluster';
import { probeRedis } from './state/redis.js';

export async function runWorkers(n: number, stateUrl: string): Promise<void> {
  await probeRedis(stateUrl);
  let stopping = false;
  for (let i = 0; i < n; i += 1) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping)
      console.error(
        `[mock] worker ${worker.id} exited (${signal ?? `code ${code}`}); not restarted`,
      );
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(stopping ? 0 : 1);
  });
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
