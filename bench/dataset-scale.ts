/**
 * @module bench/dataset-scale
 * How long the dataset takes to build and how much memory it holds, per scale. Each scale runs in
 * a fresh child process so peak RSS is that scale's alone. Also times the first full sort index a
 * list endpoint would build (every record's `wwwUpdateDate` / `orderableId` read through `field`)
 * and a sample of lazily built records.
 *
 * Usage: npx tsx bench/dataset-scale.ts [scale ...]   (default: 1 10 100 1000)
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateDataset } from '../src/dataset/generate.js';

const DEFAULT_SCALES = [1, 10, 100, 1000];
const MIB = 1024 * 1024;
const SAMPLE_RECORDS = 1000;
/** The budget the task sets for scale 1000. */
const BUDGET = { seconds: 15, rssMiB: 1536 };
const CHILD_FLAG = '--child';

function measure(scale: number): Record<string, number> {
  const t0 = performance.now();
  const dataset = generateDataset({ seed: 1, scale, baseUrl: 'http://127.0.0.1:4010/web-data/v1' });
  const buildMs = performance.now() - t0;
  const afterBuild = process.memoryUsage();
  const t1 = performance.now();
  const parts = dataset.productParts;
  const ids = Array.from(
    { length: parts.size },
    (_, i) => parts.field(i, 'orderableId') as string,
  ).sort();
  const dates = Array.from(
    { length: dataset.products.size },
    (_, i) => dataset.products.field(i, 'wwwUpdateDate') as string,
  ).sort();
  const sortMs = performance.now() - t1;
  const t2 = performance.now();
  for (let k = 0; k < SAMPLE_RECORDS; k++) {
    JSON.stringify(parts.record(Math.floor((k / SAMPLE_RECORDS) * parts.size)));
    JSON.stringify(
      dataset.documents.record(Math.floor((k / SAMPLE_RECORDS) * dataset.documents.size)),
    );
  }
  const recordUs = ((performance.now() - t2) * 1000) / (2 * SAMPLE_RECORDS);
  if (ids.length + dates.length === 0) throw new Error('empty dataset');
  return {
    scale,
    products: dataset.products.size,
    parts: parts.size,
    documents: dataset.documents.size,
    buildMs: Math.round(buildMs),
    heapMiB: Math.round(afterBuild.heapUsed / MIB),
    rssMiB: Math.round(afterBuild.rss / MIB),
    sortMs: Math.round(sortMs),
    recordUs: Math.round(recordUs),
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

const args = process.argv.slice(2);
if (args[0] === CHILD_FLAG) {
  process.stdout.write(JSON.stringify(measure(Number(args[1]))));
} else {
  const scales = args.length > 0 ? args.map(Number) : DEFAULT_SCALES;
  const rows = scales.map((scale) => {
    const out = execFileSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), CHILD_FLAG, String(scale)],
      { encoding: 'utf8', maxBuffer: MIB },
    );
    const row = JSON.parse(out) as Record<string, number>;
    console.log(
      `scale ${String(row.scale).padStart(5)}: ${row.products} products, ${row.parts} parts, ${row.documents} documents | build ${row.buildMs} ms, heap ${row.heapMiB} MiB, RSS ${row.rssMiB} MiB (peak ${row.peakRssMiB} MiB) | first sort of every part id + product date ${row.sortMs} ms | ${row.recordUs} µs per lazy record`,
    );
    return row;
  });
  const big = rows.find((r) => r.scale === 1000);
  if (big) {
    const ok = big.buildMs / 1000 < BUDGET.seconds && big.peakRssMiB < BUDGET.rssMiB;
    console.log(
      `scale 1000 budget (< ${BUDGET.seconds} s build, < ${BUDGET.rssMiB} MiB peak RSS): ${ok ? 'met' : 'MISSED'}`,
    );
    if (!ok) process.exitCode = 1;
  }
}
