#!/usr/bin/env node
// The contract suite's command (`npx web-data-contract <base-url>`): runs the TypeScript CLI
// through tsx's loader (a runtime dependency), so it works without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../contract-tests/cli.ts');
process.exitCode = await main(process.argv.slice(2));
