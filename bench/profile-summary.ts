/**
 * @module bench/profile-summary
 * Reads a V8 `.cpuprofile` (from `npm run bench -- --profile`) and prints where the time went:
 * the top functions by self time and by inclusive time, with file:line, as shares of the busy
 * (non-idle) samples. Usage: `npx tsx bench/profile-summary.ts <file.cpuprofile> [top=25] [skip=0] [filter]`,
 * where `skip` drops the first seconds of the profile (startup and warm-up).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(['(idle)', '(program)', '(garbage collector)']);

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '~/')
    .replace(/^.*\/work\/main\//, '');
  return `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
}

const [file, topArg = '25', skipArg = '0', filter] = process.argv.slice(2);
if (!file)
  throw new Error('usage: profile-summary <file.cpuprofile> [top] [skip seconds] [filter]');
const MICROS_PER_SECOND = 1e6;
const skipMicros = Number(skipArg) * MICROS_PER_SECOND;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let busy = 0;
let gc = 0;
let elapsed = 0;
profile.samples.forEach((id, k) => {
  const dt = profile.timeDeltas[k] ?? 0;
  elapsed += dt;
  if (elapsed < skipMicros) return;
  const node = byId.get(id)!;
  const name = node.callFrame.functionName;
  if (name === '(garbage collector)') gc += dt;
  if (IDLE.has(name) && name !== '(garbage collector)') return;
  busy += dt;
  self.set(label(node), (self.get(label(node)) ?? 0) + dt);
  // Count each label once per sample even under recursion.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const l = label(byId.get(at)!);
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
  }
});

const top = Number(topArg);
const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
const print = (title: string, table: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  [...table]
    .filter(([l]) => !filter || l.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([l, us]) => process.stdout.write(`${pct(us)}  ${l}\n`));
};
process.stdout.write(`busy ${(busy / MICROS_PER_SECOND).toFixed(2)} s (GC ${pct(gc)} of busy)\n`);
print('self time', self);
print('inclusive time', inclusive);
