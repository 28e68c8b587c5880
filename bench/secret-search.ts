/**
 * @module bench/secret-search
 * The secret search of src/redaction.ts at 6, 100, 1,000 and 10,000 keys, against the regular
 * expressions it replaced (src/redaction.ts at a commit before, read with `git show` into a
 * temporary file), in one run: set-up (the scrubber built and its first search) and microseconds
 * per request path and per 95-character user-agent, each blanked as the journal and `--log` do.
 * The keys look like a keys file's: `demo-` and a random tail, so they share a prefix.
 *
 * Usage: npx tsx bench/secret-search.ts [--old <commit>] [--old-max <keys>] [--sizes 6,100,...]
 * The old search is measured up to --old-max keys (default 100: at 1,000 it compiles for minutes).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createSecretsScrubber, type SecretScrubber } from '../src/redaction.js';

const { values } = parseArgs({
  options: {
    old: { type: 'string', default: '5f6dc21' },
    'old-max': { type: 'string', default: '100' },
    sizes: { type: 'string', default: '6,100,1000,10000' },
  },
});

const PATHS = [
  '/web-data/v1/products/LM358DR?include=documents,packages',
  '/web-data/v1/product-parts/TPS7A0233PDBVR%23?fields=orderableId,status',
  '/web-data/v1/parametric-search?familyId=1234&filter=vout_min:gte:1.2&page=3&size=50',
  '/web-data/v1/cross-reference?competitorPart=ADP150AUJZ-3.3-R7&page=1',
];
const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safe/1';

/** Deterministic keys: `demo-` and 24 characters of a fixed pseudo-random stream. */
function keys(count: number): string[] {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_';
  let state = 42;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  return Array.from(
    { length: count },
    () => `demo-${Array.from({ length: 24 }, () => alphabet[next() % alphabet.length]).join('')}`,
  );
}

/** Microseconds per call of `scrub` on `text`, over at least 0.3 s. */
function perCall(scrub: (text: string) => string, texts: string[]): number {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < 300) {
    for (const text of texts) scrub(text);
    calls += texts.length;
    elapsed = performance.now() - start;
  }
  return (elapsed * 1000) / calls;
}

interface Row {
  setupMs: number;
  pathUs: number;
  agentUs: number;
}

function measure(create: (secrets: string[]) => SecretScrubber, secrets: string[]): Row {
  const start = performance.now();
  const scrubber = create(secrets);
  scrubber.scrubText(PATHS[0]);
  const setupMs = performance.now() - start;
  const scrub = (text: string) => scrubber.scrubText(text);
  // Each path with a key in it too, so the search also blanks.
  const withKey = PATHS.map((p, i) => `${p}&apiKey=${secrets[(i * 7919) % secrets.length]}`);
  for (const text of withKey)
    if (scrub(text) === text) throw new Error(`no key blanked in ${text}`);
  return {
    setupMs,
    pathUs: perCall(scrub, [...PATHS, ...withKey]),
    agentUs: perCall(scrub, [USER_AGENT]),
  };
}

async function oldScrubber(commit: string): Promise<(s: string[]) => SecretScrubber> {
  const dir = mkdtempSync(join(tmpdir(), 'secret-search-'));
  const file = join(dir, 'old-redaction.ts');
  writeFileSync(file, execFileSync('git', ['show', `${commit}:src/redaction.ts`]));
  const module = (await import(pathToFileURL(file).href)) as {
    createSecretsScrubber: (s: string[]) => SecretScrubber;
  };
  rmSync(dir, { recursive: true, force: true });
  return module.createSecretsScrubber;
}

const fmt = (n: number | undefined, digits = 1) =>
  n === undefined ? 'not run' : n.toFixed(digits);

const createOld = await oldScrubber(values.old);
const oldMax = Number(values['old-max']);
console.log(
  `| keys | set-up ms old | set-up ms new | µs/path old | µs/path new | µs/UA old | µs/UA new |`,
);
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const size of values.sizes.split(',').map(Number)) {
  const secrets = keys(size);
  const now = measure(createSecretsScrubber, secrets);
  const before = size <= oldMax ? measure(createOld, secrets) : undefined;
  console.log(
    `| ${size} | ${fmt(before?.setupMs)} | ${fmt(now.setupMs)} | ${fmt(before?.pathUs, 2)} | ${fmt(now.pathUs, 2)} | ${fmt(before?.agentUs, 2)} | ${fmt(now.agentUs, 2)} |`,
  );
}
