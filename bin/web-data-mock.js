#!/usr/bin/env node
// The package's `web-data-mock` command: runs the compiled CLI (dist/, built by `npm run build`,
// which `prepare` and `prepack` run), so an installed package needs no TypeScript tooling. It
// names itself, so `--help` shows the command the user typed rather than the repository's script.
const { run } = await import('../dist/src/server/cli/cli.js');
await run('web-data-mock');
