// @ts-check
/* global performance, Request */
/**
 * @module bench/import-probe
 * One fresh process: how long importing the package root takes, then `createMockApp()` until it
 * resolves, then its first in-process answer. Usage: `node bench/import-probe.js <file URL of the
 * package's entry>`; prints one JSON line of milliseconds (never a key).
 */
const KEY = 'demo-unlimited-key';
const entry = process.argv[2];
if (!entry) throw new Error('usage: node bench/import-probe.js <file URL of the package entry>');

/** CPU time (user + system, every thread of the process) in ms: what a busy machine does not inflate. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const startCpu = cpuMs();
const started = performance.now();
const root = await import(entry);
const imported = performance.now();
const importCpu = cpuMs();
const mock = await root.createMockApp();
const ready = performance.now();
const createCpu = cpuMs();
const answer = await mock.fetch(
  new Request(`${mock.url}/products?limit=10`, { headers: { 'x-api-key': KEY } }),
);
await answer.arrayBuffer();
const answered = performance.now();
process.stdout.write(
  `${JSON.stringify({
    // From the process's own start (performance's time origin) to the first line of this script.
    nodeStartMs: started,
    importMs: imported - started,
    createMs: ready - imported,
    firstFetchMs: answered - ready,
    nodeStartCpuMs: startCpu,
    importCpuMs: importCpu - startCpu,
    createCpuMs: createCpu - importCpu,
    status: answer.status,
  })}\n`,
);
