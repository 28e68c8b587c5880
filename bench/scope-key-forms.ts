/**
 * @module bench/scope-key-forms
 * What finding scope keys by their form costs the journal: microseconds per text (request paths,
 * a user-agent, a search body) blanked by the keys file's scrubber alone (the baseline), then
 * followed by the plain-text pattern the form search replaced, then by the form search
 * (src/key-forms.ts, every spelling), in one run, interleaved round by round. The journal keeps
 * texts it found clean (secret-blanking.ts), so this is the cost of a text seen for the first time.
 *
 * Usage: npx tsx bench/scope-key-forms.ts [--rounds 5] [--iterations 20000]
 */
import { parseArgs } from 'node:util';
import { createKeyFormScrubber } from '../src/key-forms.js';
import { createSecretsScrubber } from '../src/redaction.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    iterations: { type: 'string', default: '20000' },
  },
});

const TEXTS = [
  '/web-data/v1/products/LM358DR?include=documents,packages',
  '/web-data/v1/product-parts/TPS7A0233PDBVR%23?fields=orderableId,status',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safe/1',
  JSON.stringify({
    filters: [
      { parameter: 'vout_min', operator: 'gte', value: 1.2 },
      { parameter: 'package', operator: 'eq', value: 'SOT-23-5' },
    ],
    limit: 25,
  }),
];
const KEYS = ['production', 'staging', 'expired', 'no-documents', 'low-tier', 'unlimited'].map(
  (name) => `demo-${name}-key`,
);
const secrets = createSecretsScrubber([...KEYS, 'an-admin-token-of-some-length']);
const forms = createKeyFormScrubber({ prefix: 'wdm-scope-', bodyLength: 43 });
const plainForm = (text: string) =>
  text.includes('wdm-scope-') ? text.replace(/wdm-scope-[A-Za-z0-9_-]{43}/g, '***') : text;

const WAYS: [string, (text: string) => string][] = [
  ['keys file only (baseline)', (text) => secrets.scrubText(text)],
  ['+ plain-text scope key pattern (before)', (text) => plainForm(secrets.scrubText(text))],
  ['+ scope key in every spelling (now)', (text) => forms.scrubText(secrets.scrubText(text))],
];

/** Microseconds per text for one way, over `iterations` passes of every text. */
function measure(blank: (text: string) => string, iterations: number): number {
  let length = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i += 1) for (const text of TEXTS) length += blank(text).length;
  const ns = Number(process.hrtime.bigint() - start);
  if (length === 0) throw new Error('nothing blanked');
  return ns / 1000 / (iterations * TEXTS.length);
}

const rounds = Number(values.rounds);
const iterations = Number(values.iterations);
const samples = WAYS.map((): number[] => []);
for (const [, blank] of WAYS) measure(blank, iterations / 10);
for (let round = 0; round < rounds; round += 1)
  WAYS.forEach(([, blank], i) => samples[i].push(measure(blank, iterations)));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(samples[0]);
console.log(`| way | µs per text, median of ${rounds} | ratio to the baseline |`);
console.log('|---|---:|---:|');
WAYS.forEach(([name], i) => {
  const us = median(samples[i]);
  console.log(`| ${name} | ${us.toFixed(2)} | ${(us / base).toFixed(2)} |`);
});
