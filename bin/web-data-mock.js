#!/usr/bin/env node
// The package's `web-data-mock` command: runs the compiled CLI (dist/, built by `npm run build`,
// which `prepare` and `prepack` run), so an installed package needs no TypeScript tooling.
const { run } = await import('../dist/src/cli.js');
await run();
