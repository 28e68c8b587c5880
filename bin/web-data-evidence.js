#!/usr/bin/env node
// The evidence command (`npx web-data-evidence profile ...`, `... ledger ...`): runs the compiled
// CLI (dist/, built by `npm run build`), so an installed package needs no TypeScript tooling.
const { main } = await import('../dist/src/evidence/cli.js');
process.exitCode = await main(process.argv.slice(2));
