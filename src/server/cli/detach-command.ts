/**
 * @module detach-command
 * The mock command's two CI verbs (detach.ts does the work): `--detach` (start in the background,
 * print the URL, exit 0) and `stop --port N` (end that mock, wait until it is gone), and what the
 * detached mock itself does once it listens (write its record, close when it is removed).
 */
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { announceDetached, DETACHED_ENV, startDetached, stopDetached } from './detach.js';
import { urlHost } from '../../net/listen.js';
import type { RunningServer } from '../listen.js';
import { integerArgument, PORT_RANGE, UsageError } from '../../usage.js';

/** Whether this process is the mock a `--detach` started. */
export const isDetached = (): boolean => process.env[DETACHED_ENV] !== undefined;

/** `stop`'s help. */
export const stopHelp = (command: string): string =>
  [
    `Usage: ${command} stop --port <n>`,
    '',
    `Ends the mock that \`${command} --detach\` started on port <n> and waits until it is gone`,
    '(in-flight requests finish first). Exit 0 when it is gone, 1 when no detached mock is on that',
    'port or it does not end, 2 for a usage error. Only a mock started with --detach is ended.',
    '',
  ].join('\n');

/**
 * `--detach`: the same command without the flag, in the background; prints its URL. The proxy
 * and `--workers` have their own lifetimes and are refused (exit 2).
 */
export async function detachCommand(argv: readonly string[], script: string): Promise<void> {
  if (argv.some((a) => a === '--proxy' || a.startsWith('--proxy=') || a.startsWith('--workers')))
    throw new UsageError('--detach starts the mock alone: not with --proxy or --workers');
  const url = await startDetached(
    script,
    argv.filter((a) => a !== '--detach'),
  );
  const port = new URL(url).port;
  process.stdout.write(`${url}\n`);
  process.stderr.write(
    `web-data-mock: running in the background; end it with: web-data-mock stop --port ${port}\n`,
  );
}

/** `stop --port N`. */
export async function stopCommand(argv: readonly string[], command: string): Promise<void> {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
  });
  if (values.help) {
    process.stdout.write(stopHelp(command));
    return;
  }
  if (values.port === undefined)
    throw new UsageError('stop needs --port <n>: the port of the mock started with --detach');
  const port = integerArgument('--port', values.port, { ...PORT_RANGE, min: 1 });
  const record = await stopDetached(port);
  process.stdout.write(`web-data-mock: the mock on port ${port} (pid ${record.pid}) is gone\n`);
}

/**
 * In the detached mock, once it listens: its record for `stop`, and `end` called when `stop`
 * removes it. Returns what removes the record when the mock ends otherwise.
 */
export function announce(running: RunningServer, end: () => void): () => void {
  // The address it is bound to (a wildcard reached through loopback), whatever --public-url says.
  const { address, port } = running.server.address() as AddressInfo;
  return announceDetached(
    { port, url: running.url, origin: `http://${urlHost(address)}:${port}` },
    end,
  );
}
