/**
 * @module support/preflight
 * Before anything runs, the target is asked twice: any HTTP answer at all (none: a wrong URL, a VPN
 * down), then one plain request with the key (401: the key is refused). Either is a run that cannot
 * be one, which the command answers with one line and exit 2; the Markdown summary and the step
 * summary still say why, so a CI page shows the reason.
 */
import type { Contract } from '../../contract/index.js';
import { withDeadline } from '../../net/deadline.js';
import { redactSecrets } from '../../redaction.js';
import { secretsOf, type ContractOptions } from './options.js';
import { writeSummary } from './outputs.js';
import { listOperations } from './records.js';
import { renderRefusal } from './summary.js';

type Target = Pick<ContractOptions, 'apiKey' | 'timeoutMs'> & { baseUrl: string };

/** The status `url` answers, under a deadline that holds the command's process open. */
function status(url: string, timeoutMs: number, headers: Record<string, string> = {}) {
  return withDeadline(timeoutMs, async (signal) => {
    const answer = await fetch(url, { headers, signal, redirect: 'manual' });
    await answer.body?.cancel();
    return answer.status;
  });
}

/** Why the run cannot be one (one line), or undefined when the target answers and takes the key. */
export async function refusalOf(target: Target, contract: Contract): Promise<string | undefined> {
  const { baseUrl, timeoutMs } = target;
  try {
    await status(baseUrl, timeoutMs);
  } catch (error) {
    const why =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms (CONTRACT_TIMEOUT_MS)`
        : String((error as Error).cause ?? error);
    return `target ${baseUrl} is not reachable: ${why}; nothing was tested`;
  }
  const op = listOperations(contract)[0] ?? contract.operations.find((o) => o.method === 'get');
  if (!op || op.path.includes('{')) return undefined;
  const url = `${baseUrl}${op.path}`;
  try {
    if ((await status(url, timeoutMs, { 'x-api-key': target.apiKey })) === 401)
      return `the target refused the key: CONTRACT_API_KEY got 401 on GET ${url}; check the key (nothing was tested)`;
  } catch {
    // The target answered a moment ago: the checks themselves will say what goes wrong now.
  }
  return undefined;
}

/** Writes the summary of a run that cannot be one: the reason, in the summary file and the step summary. */
export function reportRefusal(
  options: ContractOptions,
  baseUrl: string,
  release: string,
  reason: string,
): void {
  const secrets = secretsOf(options);
  writeSummary(options, redactSecrets(renderRefusal(reason, baseUrl, release), secrets));
}
