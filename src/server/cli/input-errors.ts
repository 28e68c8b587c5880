/**
 * @module server/cli/input-errors
 * The lower layers say what is wrong in their own errors, and know nothing of exit codes; the
 * command says which of them are the user's to fix, like a flag (exit 2): a configuration file
 * (ConfigFileError), a recordings folder (RecordingsError), the `--state` URL or Redis at start
 * (StateUnreachableError) and a taken port (PortTakenError). Each becomes a UsageError with the
 * same message, the lower error as its cause.
 */
import { PortTakenError } from '../../net/listen.js';
import { UsageError } from '../../usage.js';
import { ConfigFileError } from '../config/config-file.js';

const usage = (error: Error) => new UsageError(error.message, { cause: error });

/** `error` as the command's usage error when it is the user's input, else as it is. */
export async function asUsageError(error: unknown): Promise<unknown> {
  if (!(error instanceof Error)) return error;
  if (error instanceof ConfigFileError || error instanceof PortTakenError) return usage(error);
  // Their modules load only when an option needs them (the replay folder, a Redis URL).
  if (error.name === 'RecordingsError') {
    const { RecordingsError } = await import('../../recordings/recorder.js');
    if (error instanceof RecordingsError) return usage(error);
  }
  if (error.name === 'StateUnreachableError') {
    const { StateUnreachableError } = await import('../../state/shared/connection.js');
    if (error instanceof StateUnreachableError) return usage(error);
  }
  return error;
}
