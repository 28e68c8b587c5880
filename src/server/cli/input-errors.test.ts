/**
 * @module server/cli/input-errors.test
 * The lower layers' errors that are the user's input become the command's usage error (exit 2)
 * with the same message; any other error stays as it is (exit 1).
 */
import { describe, expect, it } from 'vitest';
import { PortTakenError } from '../../net/listen.js';
import { RecordingsError } from '../../recordings/recorder.js';
import { StateUnreachableError } from '../../state/shared/connection.js';
import { exitCodeFor, UsageError } from '../../usage.js';
import { ConfigFileError } from '../config/config-file.js';
import { asUsageError } from './input-errors.js';

describe('asUsageError', () => {
  it.each([
    ['a configuration file', new ConfigFileError('--keys k.json: not JSON')],
    ['a recordings folder', new RecordingsError('replay: r is not a directory')],
    ['the --state URL or Redis at start', new StateUnreachableError('--state redis://x: down')],
    ['a taken port', new PortTakenError('port 1 on 127.0.0.1 is taken')],
  ])('makes %s a usage error with the same message, exit 2', async (_what, error) => {
    expect(exitCodeFor(error)).toBe(1);
    const mapped = await asUsageError(error);
    expect(mapped).toBeInstanceOf(UsageError);
    expect((mapped as Error).message).toBe(error.message);
    expect((mapped as Error).cause).toBe(error);
    expect(exitCodeFor(mapped)).toBe(2);
  });

  it('leaves any other error as it is, exit 1', async () => {
    const error = new Error('boom');
    expect(await asUsageError(error)).toBe(error);
    expect(await asUsageError('text')).toBe('text');
    expect(exitCodeFor(await asUsageError(error))).toBe(1);
  });
});
