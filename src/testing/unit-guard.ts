/**
 * @module testing/unit-guard
 * The unit project's setup file (vitest.config.ts): a unit test opens no socket and starts no
 * process, so it can share a worker with every other unit file and the quick loop stays quick.
 * Listening, connecting (fetch, Redis) and spawning throw here, naming the way out: the file
 * belongs in the end-to-end list of vitest.config.ts.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

const WAY_OUT =
  'is not a unit test: add this file to END_TO_END (or PROOFS, for a proof that takes minutes) in vitest.config.ts (unit tests open no socket and start no process)';

function refuse(what: string): never {
  throw new Error(`${what} ${WAY_OUT}`);
}

net.Server.prototype.listen = function listen() {
  refuse('listening on a port');
};
net.Socket.prototype.connect = function connect() {
  refuse('opening a connection');
};
for (const name of [
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
] as const) {
  Object.assign(childProcess, { [name]: () => refuse(`starting a process (${name})`) });
}
// `import { spawn } from 'node:child_process'` reads the ES module's bindings: bring them in line.
syncBuiltinESMExports();
