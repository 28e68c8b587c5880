/**
 * @module bench/shutdown.test
 * Graceful shutdown of the real CLI in a child process (end to end, real sockets): with an idle
 * keep-alive connection parked and a request in flight (held by `Prefer: delay`), SIGTERM or SIGINT
 * lets the in-flight request finish with 200, the process exits 0 within 2 s, and the port can be
 * bound again at once. Lives in bench/ because it shares the CLI launcher with the startup probe.
 */
import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BENCH_KEY, firstAnswer, launchCli, portIsFree, stopCli } from './startup.js';

const EXIT_WITHIN_MS = 2_000;
/** How long the in-flight request is held: long enough to still be running when the signal lands. */
const IN_FLIGHT_DELAY_MS = 600;
const SIGNAL_AFTER_MS = 150;

function get(url: string, agent: Agent, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { 'x-api-key': BENCH_KEY, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    })
      .on('error', reject)
      .end();
  });
}

/** Starts the CLI, parks one idle keep-alive connection, starts a held request, signals, and reports. */
async function shutdownWhileBusy(signal: NodeJS.Signals, inFlightKeepAlive: boolean) {
  const cli = await launchCli();
  const idle = new Agent({ keepAlive: true });
  try {
    const list = `${cli.url}/products?limit=1`;
    await firstAnswer(list);
    expect(await get(list, idle)).toBe(200);
    const inFlight = get(list, new Agent({ keepAlive: inFlightKeepAlive }), {
      prefer: `delay=${IN_FLIGHT_DELAY_MS}`,
    });
    await new Promise((resolve) => setTimeout(resolve, SIGNAL_AFTER_MS));
    const stopped = await stopCli(cli.child, signal);
    return {
      stopped,
      inFlightStatus: await inFlight,
      portFree: await portIsFree(cli.port),
      output: cli.output(),
    };
  } finally {
    idle.destroy();
    if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  }
}

describe('CLI shutdown', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s: in-flight request finishes, idle keep-alive closed, exit 0 within 2 s, port free',
    async (signal) => {
      const { stopped, inFlightStatus, portFree, output } = await shutdownWhileBusy(signal, false);
      expect(inFlightStatus).toBe(200);
      expect(stopped).toMatchObject({ code: 0, signal: null });
      expect(stopped.ms).toBeLessThan(EXIT_WITHIN_MS);
      expect(portFree).toBe(true);
      expect(output).not.toMatch(/Error|at .*\.ts:\d+/);
    },
    30_000,
  );

  // A keep-alive connection whose request was in flight turns idle only after closing starts;
  // closeServer() keeps sweeping idle connections so the process exits promptly.
  it('SIGTERM with the in-flight request on a keep-alive connection still exits within 2 s', async () => {
    const { stopped, inFlightStatus } = await shutdownWhileBusy('SIGTERM', true);
    expect(inFlightStatus).toBe(200);
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(EXIT_WITHIN_MS);
  }, 30_000);
});
