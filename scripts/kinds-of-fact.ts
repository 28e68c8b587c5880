/**
 * @module kinds-of-fact
 * `docs/kinds-of-fact.md`: the one table of what the contract takes from the source, from the
 * vendor's reference and from us, generated from `spec/openapi.yaml` (never edited by hand).
 * `npm run types:gen` writes it (`--write`); `npm run types:check` fails when it is stale.
 */
import { fileURLToPath } from 'node:url';
import { loadContract, renderKindsTable, UNRELEASED } from '../src/contract/index.js';
import { runGeneratedFile, staleGenerated } from './check-types-fresh.js';

export const KINDS_PATH = fileURLToPath(new URL('../docs/kinds-of-fact.md', import.meta.url));

/** The page's text for the whole document (every release, the unreleased operations included). */
export async function renderKindsDocument(specPath?: string): Promise<string> {
  const contract = await loadContract({ specPath, release: UNRELEASED });
  return [
    '# Kinds of fact',
    '',
    '_Generated from `spec/openapi.yaml` by `npm run types:gen`; do not edit by hand._',
    '',
    renderKindsTable(contract),
  ].join('\n');
}

/** The failure text when the committed page is not what the document gives today, else undefined. */
export async function checkKindsFresh(
  path = KINDS_PATH,
  specPath?: string,
): Promise<string | undefined> {
  return staleGenerated(path, await renderKindsDocument(specPath), specPath);
}

async function main(): Promise<void> {
  await runGeneratedFile({
    path: KINDS_PATH,
    render: () => renderKindsDocument(),
    check: () => checkKindsFresh(),
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
