#!/usr/bin/env node
// The contract suite's command (`npx web-data-contract [base-url]`): runs the compiled CLI
// (dist/, built by `npm run build`), so an installed package needs no TypeScript tooling.
const { main } = await import('../dist/src/suite/cli.js');
process.exitCode = await main(process.argv.slice(2));
