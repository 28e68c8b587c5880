/**
 * @module bench/downloads
 * What a document download costs to produce, per fileType: average bytes, microseconds for the
 * first download of each document and for a repeated one, over every document of the dataset.
 * This is the part of a download the ZIP/PDF writers and the file cache decide; the HTTP path
 * around it is the mock's usual one. Usage: `npx tsx bench/downloads.ts [scale=1] [rounds=20]`.
 */
import { generateDataset } from '../src/dataset/generate.js';

const [scaleArg = '1', roundsArg = '20'] = process.argv.slice(2);
const rounds = Number(roundsArg);
const MICROS_PER_MS = 1000;

interface Tally {
  files: number;
  bytes: number;
  firstMicros: number;
  repeatMicros: number;
}

const tallies = new Map<string, Tally>();
for (let round = 0; round < rounds; round++) {
  // A fresh dataset per round, so "first" is a real first download (JIT warm after round 0).
  const dataset = generateDataset({
    seed: 1 + round,
    scale: Number(scaleArg),
    baseUrl: 'http://127.0.0.1:4010/web-data/v1',
  });
  for (let d = 0; d < dataset.documents.size; d++) {
    const t0 = performance.now();
    const file = dataset.documentFile(d);
    const t1 = performance.now();
    dataset.documentFile(d);
    const t2 = performance.now();
    if (round === 0) continue;
    const kind = file.filename.slice(file.filename.lastIndexOf('.') + 1);
    const tally = tallies.get(kind) ?? { files: 0, bytes: 0, firstMicros: 0, repeatMicros: 0 };
    tally.files += 1;
    tally.bytes += file.bytes.byteLength;
    tally.firstMicros += (t1 - t0) * MICROS_PER_MS;
    tally.repeatMicros += (t2 - t1) * MICROS_PER_MS;
    tallies.set(kind, tally);
  }
}
for (const [kind, t] of [...tallies].sort()) {
  process.stdout.write(
    `${kind.padEnd(5)} ${String(t.files).padStart(6)} files | avg ${Math.round(t.bytes / t.files)} bytes | first download ${(t.firstMicros / t.files).toFixed(1)} us | repeated ${(t.repeatMicros / t.files).toFixed(1)} us\n`,
  );
}
