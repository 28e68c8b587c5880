/**
 * @module bench/cold-start-cli
 * The cold-start comparison alone (cold-start.ts), printed as `npm run bench` prints it:
 * `npx tsx bench/cold-start-cli.ts [--rounds 5] [--installed <project dir>]`. Without
 * `--installed`, the package is packed and installed into a temporary project first (from the
 * local npm cache); the path is printed so later runs can reuse it.
 */
import { parseArgs } from 'node:util';
import { installPacked, measureColdStarts } from './cold-start.js';
import { coldStartSection } from './report.js';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, installed: { type: 'string' } },
});
const rounds = Number(values.rounds);
if (!(Number.isInteger(rounds) && rounds >= 1))
  throw new Error(`--rounds must be a whole number of at least 1; received ${values.rounds}`);
const log = (line: string) => process.stderr.write(`[cold-start] ${line}\n`);
let project = values.installed;
if (!project) {
  log('packing and installing the package (npm pack, npm install --omit=dev)');
  project = await installPacked();
  log(`installed in ${project} (reuse it with --installed)`);
}
const report = await measureColdStarts(rounds, project, log);
process.stdout.write(`${coldStartSection(report).join('\n')}\n`);
