/**
 * @module console/page
 * The QA console's own files, served without the admin token (the page asks for it and sends it
 * only as the `x-mock-admin-token` header of its calls): `GET /console` (a fixed HTML shell, no
 * value written into it), its script and style sheet, and the CSP report endpoint. Strict CSP:
 * this origin only, no inline script or style, no eval, reports to the endpoint.
 */
import { readFileSync } from 'node:fs';
import type { Hono } from 'hono';
import type { CspReports } from './csp-reports.js';
import { CONSOLE_ICON, CONSOLE_STYLE, consoleHtml, consolePaths, consolePolicy } from './shell.js';

/** The page's script, beside this module in the sources and in dist/ alike (tsc copies it: allowJs). */
const SCRIPT_URL = new URL('./console.js', import.meta.url);
let script: string | undefined;
const readScript = () => (script ??= readFileSync(SCRIPT_URL, 'utf8'));

/** Registers the page's files on the admin router at `prefix` (`/__mock`), before its token check. */
export function mountConsolePage(
  admin: Hono,
  prefix: string,
  reports: CspReports,
  bodyTimeoutMs: number,
): void {
  const paths = consolePaths(prefix);
  const local = consolePaths('');
  const file = (contentType: string, extra: Record<string, string> = {}) => ({
    'content-type': contentType,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    ...extra,
  });
  admin.get(local.page, (c) =>
    c.body(
      consoleHtml(paths),
      200,
      file('text/html; charset=utf-8', {
        'content-security-policy': consolePolicy(paths.report),
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
      }),
    ),
  );
  admin.get(local.script, (c) => c.body(readScript(), 200, file('text/javascript; charset=utf-8')));
  admin.get(local.style, (c) => c.body(CONSOLE_STYLE, 200, file('text/css; charset=utf-8')));
  admin.get(local.icon, (c) => c.body(CONSOLE_ICON, 200, file('image/svg+xml')));
  admin.post(local.report, reports.receive(bodyTimeoutMs));
}
