// The image's HEALTHCHECK: GET /healthz on the port the mock or the proxy listens on inside the
// container (its last --port argument, else $PORT, else 4010). Exit 0 healthy, 1 not. A contract
// run is a one-shot job with nothing to probe, so it counts as healthy while it runs.
import { readdirSync, readFileSync } from 'node:fs';

function commandLines() {
  const lines = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      lines.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
    } catch {
      // a process that ended while we looked
    }
  }
  return lines;
}

const all = commandLines();
if (all.some((argv) => argv.some((arg) => arg.endsWith('web-data-contract')))) process.exit(0);
const server = all.find((argv) => argv.some((arg) => arg.endsWith('web-data-mock'))) ?? [];
let port = process.env.PORT || '4010';
for (let i = 0; i < server.length; i++) {
  if (server[i] === '--port' && server[i + 1]) port = server[i + 1];
  else if (server[i].startsWith('--port=')) port = server[i].slice('--port='.length);
}
try {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`, {
    signal: AbortSignal.timeout(2500),
  });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
