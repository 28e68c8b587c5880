#!/usr/bin/env node
// The evidence command (`npx web-data-evidence profile ...`): runs the TypeScript CLI through
// tsx's loader (a runtime dependency), so it works without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/evidence/cli.ts');
process.exitCode = await main(process.argv.slice(2));
