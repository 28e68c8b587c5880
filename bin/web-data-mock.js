#!/usr/bin/env node
// The package's bin: runs the TypeScript CLI through tsx's loader (tsx is a runtime dependency),
// so `npx web-data-mock` works without a build step.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/cli.ts');
await run();
