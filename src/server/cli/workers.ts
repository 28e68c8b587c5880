/**
 * @module workers
 * `--workers N`: the primary process checks that the shared store answers (so a wrong URL is one
 * usage error, not N), then starts N workers with the same arguments; they share one port
 * (node:cluster hands connections out) and one state (Redis). The primary passes SIGINT/SIGTERM
 * (and its own parent's exit, as SIGTERM) on and exits when the workers have; a worker that dies is reported, not restarted (a crash
 * loop should be seen, and a balancer in front of replicas is the place for restarts).
 *
 * A worker listens before its dataset is built (so it knows its port) and answers 503 until then;
 * node:cluster already hands it connections in that time. So the banner, which tells a user or a
 * test script "send requests now", is printed by the primary once every worker has said it is
 * ready, not by the first worker that is.
 */
import cluster from 'node:cluster';
import { probeRedis } from '../../state/redis.js';
import { onEnd } from './process-lifetime.js';

interface ReadyMessage {
  kind: 'web-data-mock:ready';
  banner: string;
}

function isReadyMessage(message: unknown): message is ReadyMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as ReadyMessage).kind === 'web-data-mock:ready' &&
    typeof (message as ReadyMessage).banner === 'string'
  );
}

/** In a worker: tell the primary this worker serves, with the banner it would print. */
export function reportReady(banner: string): void {
  const message: ReadyMessage = { kind: 'web-data-mock:ready', banner };
  process.send?.(message);
}

export async function runWorkers(n: number, stateUrl: string): Promise<void> {
  await probeRedis(stateUrl);
  let stopping = false;
  const banners = new Map<number, string>();
  for (let i = 0; i < n; i += 1) {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (!isReadyMessage(message) || banners.has(worker.id)) return;
      banners.set(worker.id, message.banner);
      if (banners.size === n)
        // Any worker's banner will do (they differ only in their start time); the slowest one's
        // "ready in" is the fleet's.
        process.stdout.write(`${n} workers: ${message.banner}`);
    });
  }
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping)
      console.error(
        `[mock] worker ${worker.id} exited (${signal ?? `code ${code}`}); not restarted`,
      );
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(stopping ? 0 : 1);
  });
  onEnd((reason) => {
    stopping = true;
    // A parent gone (or a stop asked) is a stop like `kill`: each worker finishes its requests within the grace.
    const signal = reason === 'SIGINT' ? 'SIGINT' : 'SIGTERM';
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  });
}
