/**
 * @module bench/mock-child
 * The mock under test, alone in its process: starts on an ephemeral port with the given seed and
 * scale, tells the orchestrator its URL and a few real identifiers the scenarios need, then answers
 * memory questions until it is told to stop. Usage (forked by bench/run.ts and bench/soak.ts):
 * `node --import tsx bench/mock-child.ts <scale> [seed]`.
 */
import { startMockServer } from '../src/server/listen.js';
import { serveParent } from './ipc.js';

/** The cross-reference scenario asks about this many numbers: the documented maximum. */
export const CROSS_REFERENCE_BATCH = 200;

const send = serveParent();
const [scaleArg = '1', seedArg = '1'] = process.argv.slice(2);

try {
  const running = await startMockServer({ port: 0, scale: Number(scaleArg), seed: Number(seedArg), validateResponses: false });
  const { dataset } = running.app.state.apis[0];
  const parts = dataset.productParts;
  let partWithHash: string | undefined;
  for (let i = 0; i < parts.size && partWithHash === undefined; i++) if (parts.id(i).includes('#')) partWithHash = parts.id(i);
  const known = dataset.competitorPartNumbers.slice(0, CROSS_REFERENCE_BATCH);
  // Pad with numbers nobody knows when the dataset knows fewer than a full batch: both paths are real traffic.
  const partNumbers = [...known, ...Array.from({ length: CROSS_REFERENCE_BATCH - known.length }, (_, k) => `BENCH-UNKNOWN-${k}`)];
  send({ type: 'ready', url: running.url, info: { products: dataset.products.size, parts: parts.size, partWithHash, partNumbers } });
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (error) {
  send({ type: 'failed', message: (error as Error).stack ?? String(error) });
  process.exit(1);
}
