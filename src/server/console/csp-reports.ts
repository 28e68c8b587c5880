/**
 * @module console/csp-reports
 * Where the console's Content-Security-Policy reports land (`POST /__mock/console/csp-report`,
 * which the browser sends without the admin token): counted, the last few kept as bounded text for
 * `GET /__mock/console/csp-reports` (behind the token). A silent endpoint is the proof that the
 * page ran no inline script and loaded nothing from elsewhere.
 */
import type { Context, Env } from 'hono';
import { apiError } from '../errors.js';
import { readBodyText } from '../pipeline/read-body.js';

export const MAX_REPORT_BYTES = 8 * 1024;
/** Reports kept to read back; older ones are only counted. */
export const KEPT_REPORTS = 10;

export class CspReports {
  #count = 0;
  readonly #kept: string[] = [];

  /** The handler of the report endpoint: reads within MAX_REPORT_BYTES, answers 204. */
  receive(timeoutMs: number) {
    return async (c: Context<Env, string>) => {
      const { text } = await readBodyText(c, {
        maxBytes: MAX_REPORT_BYTES,
        tooLarge: () => apiError(413, `a CSP report is at most ${MAX_REPORT_BYTES} bytes`),
        timeoutMs,
        tooSlow: () =>
          apiError(400, 'a CSP report too slow to arrive', {}, { connection: 'close' }),
      });
      this.#count += 1;
      this.#kept.push(text);
      if (this.#kept.length > KEPT_REPORTS) this.#kept.shift();
      return c.body(null, 204);
    };
  }

  /** How many reports arrived, and the last few as text. */
  read() {
    return { count: this.#count, reports: [...this.#kept] };
  }

  clear(): void {
    this.#count = 0;
    this.#kept.length = 0;
  }
}
