/**
 * @module scripts/check-readme-moved
 * One-off check for the README split (issue 22): every sentence, table row, code line and heading
 * of the README as it was at a given commit must appear, word for word, in today's README or a
 * page under docs/, so moving the detail out dropped nothing. Link targets and whitespace are
 * ignored (a link's path changes when its text moves into docs/). The few units changed on
 * purpose are listed below with the reason; anything else missing is printed and exits 1.
 *
 *   npx tsx scripts/check-readme-moved.ts [commit]     (default fedca5d, the last one-file README)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Old text -> why it reads differently now (each is the start of the unit as it was). */
const CHANGED_ON_PURPOSE: Record<string, string> = {
  "`npm ci`, Debian's `chromium` when it can install it, then `npm test`.":
    'CI now also installs redis-server and builds and runs the container (docs/architecture.md)',
  '| `vitest` (dev) |':
    'vitest is a runtime dependency now: web-data-contract runs it (docs/dependencies.md)',
  '| `npm run contract` | the contract suite (see above) |':
    '"see above" became a link to docs/contract-suite.md',
  '| `npm run bench` | the benchmark (see below) |':
    '"see below" became a link to docs/performance.md',
  '| `npx redocly respect contract-tests/workflows/web-data.arazzo.yaml` |':
    'the "Arazzo workflows" reference now names docs/contract-suite.md',
};

const normalize = (text: string): string =>
  text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#+\s*/gm, '')
    .replace(/\s+/g, ' ')
    .trim();

function unitsOf(markdown: string): string[] {
  const units: string[] = [];
  let inCode = false;
  let paragraph: string[] = [];
  const flush = () => {
    const text = paragraph.join(' ').trim();
    paragraph = [];
    if (!text) return;
    // Sentences end at ". " before a capital, a backtick, a bold mark or a parenthesis.
    units.push(...text.split(/(?<=[.!?:])\s+(?=[A-Z`*(])/));
  };
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      flush();
      inCode = !inCode;
      continue;
    }
    if (inCode || line.startsWith('|') || line.startsWith('#')) {
      flush();
      if (line.trim() && !/^\|[-|: ]+\|$/.test(line.trim())) units.push(line);
      continue;
    }
    if (!line.trim() || /^- /.test(line)) flush();
    paragraph.push(line.replace(/^- /, ''));
  }
  flush();
  return units;
}

const commit = process.argv[2] ?? 'fedca5d';
const old = execFileSync('git', ['show', `${commit}:README.md`], { encoding: 'utf8' });
const pages = ['README.md', ...readdirSync('docs').map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);
const haystack = normalize(pages.map((f) => readFileSync(f, 'utf8')).join('\n'));
const units = unitsOf(old);
const missing = units.filter((unit) => !haystack.includes(normalize(unit)));
const unexplained = missing.filter(
  (unit) => !Object.keys(CHANGED_ON_PURPOSE).some((start) => unit.trim().startsWith(start)),
);
for (const unit of missing)
  if (!unexplained.includes(unit)) {
    const why = Object.entries(CHANGED_ON_PURPOSE).find(([start]) =>
      unit.trim().startsWith(start),
    )!;
    console.log(`changed on purpose: ${unit.slice(0, 70)}... (${why[1]})`);
  }
for (const unit of unexplained) console.log(`MISSING: ${unit}`);
console.log(
  `${units.length} units of the README at ${commit}: ${units.length - missing.length} found word for word, ` +
    `${missing.length - unexplained.length} changed on purpose, ${unexplained.length} missing`,
);
process.exitCode = unexplained.length > 0 ? 1 : 0;
