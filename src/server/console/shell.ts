/**
 * @module console/shell
 * The fixed parts of the QA console: its HTML (no value from a request, the document or the
 * options is written into it; console.js fills everything in as text), its style sheet (WCAG AA
 * contrast, a visible focus ring), and its Content Security Policy (this origin only, no inline
 * script or style, no eval, every violation reported to the console's report endpoint).
 */
import { CONTENT_SECURITY_POLICY } from '../docs-page/shell.js';

/** Where the console's files live under the admin prefix. */
export const consolePaths = (prefix: string) => ({
  page: `${prefix}/console`,
  script: `${prefix}/console/assets/console.js`,
  style: `${prefix}/console/assets/console.css`,
  report: `${prefix}/console/csp-report`,
  icon: `${prefix}/console/assets/icon.svg`,
});

/** The /docs page's policy, with every violation reported to the console's own endpoint. */
export const consolePolicy = (reportPath: string) =>
  `${CONTENT_SECURITY_POLICY}; report-uri ${reportPath}`;

const PANELS = [
  ['journal', 'Journal'],
  ['faults', 'Faults'],
  ['stubs', 'Stubs'],
  ['records', 'Records'],
  ['limits', 'Clock and limits'],
  ['reset', 'Reset'],
] as const;

const tabs = PANELS.map(
  ([id, title]) =>
    `<button type="button" role="tab" id="tab-${id}" aria-controls="panel-${id}" data-panel="${id}">${title}</button>`,
).join('\n');

const BODY = `<section id="panel-journal" class="panel" role="tabpanel" aria-labelledby="tab-journal">
<h2>Journal <span class="live" id="live">not connected</span></h2>
<div class="fields">
<label>Operation <select id="f-operation"><option value="">any</option></select></label>
<label>Status <select id="f-status"><option value="">any</option><option value="2">2xx</option><option value="3">3xx</option><option value="4">4xx</option><option value="5">5xx</option></select></label>
<label>Key <select id="f-key"><option value="">any</option></select></label>
<label>Text <input id="f-text" type="search" spellcheck="false"></label>
<span id="journal-count" role="status"></span>
</div>
<div class="scroll"><table id="journal"><caption class="sr">Requests the mock received, newest first</caption><thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Operation</th><th scope="col">Status</th><th scope="col">Key</th><th scope="col">Answered by</th></tr></thead><tbody></tbody></table></div>
<div id="detail" hidden>
<h3>Request <span id="detail-title"></span></h3>
<pre id="detail-json" class="code"></pre>
<h3>curl</h3>
<pre id="detail-curl" class="code"></pre>
<p><button type="button" id="copy-curl">Copy as curl</button> <button type="button" id="stub-this">Stub this</button> <span id="copy-status" role="status"></span></p>
</div>
</section>
<section id="panel-faults" class="panel" role="tabpanel" aria-labelledby="tab-faults" hidden>
<h2>Faults</h2>
<form id="fault-form">
<div class="fields">
<label>Operation <select id="fault-operation" required></select></label>
<label>Key <select id="fault-key"><option value="">any key</option></select></label>
</div>
<fieldset><legend>Match: the operation's own parameters (empty: any value)</legend><div id="fault-fields" class="fields"></div></fieldset>
<fieldset><legend>Action</legend><div class="fields">
<label>Status <select id="fault-status"><option value="">none</option></select></label>
<label>Retry-After (s) <input id="fault-retry" type="number" disabled></label>
<label>Delay (ms) <input id="fault-delay" type="number"></label>
<label><input id="fault-reset" type="checkbox"> Reset the connection</label>
<label><input id="fault-truncate" type="checkbox"> Truncate the body</label>
<label>Dribble (bytes per 50 ms) <input id="fault-slow" type="number"></label>
<label>Count <input id="fault-count" type="number" value="1" required></label>
</div></fieldset>
<p><button type="submit" id="fault-arm">Arm</button> <span id="fault-result" role="status"></span></p>
</form>
<h3>Armed</h3>
<table id="armed"><thead><tr><th scope="col">Match</th><th scope="col">Action</th><th scope="col">Left</th><th scope="col"><span class="sr">Disarm</span></th></tr></thead><tbody></tbody></table>
</section>
<section id="panel-stubs" class="panel" role="tabpanel" aria-labelledby="tab-stubs" hidden>
<h2>Stubs</h2>
<p id="stub-help">Open a journal row and press "Stub this": the answer the dataset gave opens here to edit.</p>
<div id="stub-editor" hidden>
<p>Operation <code id="stub-operation"></code>, match <code id="stub-match"></code></p>
<div class="fields">
<label>Send as <select id="stub-mode"><option value="patch">merge patch (the changes only)</option><option value="respond">whole answer</option></select></label>
<label>Status <input id="stub-status" type="number" disabled></label>
<label>Times (empty: until removed) <input id="stub-times" type="number"></label>
</div>
<div class="editor"><label for="stub-json">Answer (JSON)</label><textarea id="stub-json" rows="18" spellcheck="false"></textarea>
<ol id="stub-lines" class="lines" aria-label="The contract check, line by line"></ol></div>
<p id="stub-verdict" role="status"></p>
<p><button type="button" id="stub-add">Add stub</button></p>
</div>
<h3>Stubs kept</h3>
<table id="stubs"><thead><tr><th scope="col">Id</th><th scope="col">Match</th><th scope="col">Answer</th><th scope="col">Left</th><th scope="col"><span class="sr">Remove</span></th></tr></thead><tbody></tbody></table>
</section>
<section id="panel-records" class="panel" role="tabpanel" aria-labelledby="tab-records" hidden>
<h2>Records</h2>
<form id="record-find" class="fields">
<label>Family <select id="record-family"></select></label>
<label>Id <input id="record-id" spellcheck="false" required></label>
<button type="submit">Find</button>
</form>
<div id="record-editor" hidden>
<div class="editor"><label for="record-json">Record (JSON)</label><textarea id="record-json" rows="18" spellcheck="false"></textarea>
<ol id="record-lines" class="lines" aria-label="The contract check, line by line"></ol></div>
<p id="record-verdict" role="status"></p>
<p><button type="button" id="record-put">Put</button> <button type="button" id="record-remove">Remove</button> <span id="record-result" role="status"></span></p>
</div>
<h3>Edits in force</h3>
<table id="edits"><thead><tr><th scope="col">#</th><th scope="col">Edit</th><th scope="col">Family</th><th scope="col">Id</th></tr></thead><tbody></tbody></table>
</section>
<section id="panel-limits" class="panel" role="tabpanel" aria-labelledby="tab-limits" hidden>
<h2>Clock and limits</h2>
<form id="clock-form" class="fields">
<label>Advance the clock by (s) <input id="clock-seconds" type="number" min="0" value="60" required></label>
<button type="submit">Advance clock</button>
<button type="button" id="limits-refresh">Refresh</button>
<span id="clock-now" role="status"></span>
</form>
<div class="scroll"><table id="limits"><thead><tr><th scope="col">Key</th><th scope="col">Tier</th><th scope="col">Per minute</th><th scope="col">Per hour</th><th scope="col">Data transfer</th><th scope="col">Slots</th><th scope="col">Next request</th></tr></thead><tbody></tbody></table></div>
</section>
<section id="panel-reset" class="panel" role="tabpanel" aria-labelledby="tab-reset" hidden>
<h2>Reset</h2>
<p>Clears the stubs, record edits, armed faults, the journal, rate-limit windows and the clock offset of what the console shows: the mock's own (every scope keeps its own), or one scope.</p>
<div class="fields"><button type="button" id="reset-open">Reset…</button> <span id="reset-result" role="status"></span></div>
<dialog id="reset-dialog" aria-labelledby="reset-question"><p id="reset-question"></p>
<p><button type="button" id="reset-confirm"></button> <button type="button" id="reset-cancel">Cancel</button></p></dialog>
</section>`;

/** The console's HTML: fixed, every value filled in by the script as text. */
export function consoleHtml(paths: ReturnType<typeof consolePaths>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mock QA console</title>
<link rel="icon" href="${paths.icon}">
<link rel="stylesheet" href="${paths.style}">
<script type="module" src="${paths.script}"></script>
</head>
<body>
<header>
<h1>Mock QA console</h1>
<form id="signin" class="fields">
<label for="token">Admin token</label>
<input id="token" type="password" autocomplete="off" spellcheck="false">
<button type="submit">Sign in</button>
<button type="button" id="signout">Sign out</button>
</form>
<p id="signin-help">Type the admin token: the one the mock was started with (<code>--admin-token &lt;token&gt;</code>), or the one <code>startMock</code> printed. It is kept in this tab only (sessionStorage) and sent as the <code>x-mock-admin-token</code> header.</p>
<p id="status" role="status" aria-live="polite"></p>
</header>
<nav role="tablist" aria-label="Panels">
${tabs}
</nav>
<main id="main" hidden>
<div class="fields" id="view-bar"><label>Showing <select id="view"><option value="">the mock's own controls</option></select></label>
<button type="button" id="view-refresh" class="quiet">Refresh the scopes</button> <span id="view-status" role="status"></span></div>
${BODY}
</main>
</body>
</html>
`;
}

/** The page's icon: asked for here, the browser does not ask the API for /favicon.ico (a journal row). */
export const CONSOLE_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1d4f91"/></svg>';

export const CONSOLE_STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}
header{padding:.75rem 1.5rem;border-bottom:1px solid #c8c8c8;background:#f5f5f7}
h1{font-size:1.3rem;margin:0 0 .5rem}h2{font-size:1.15rem;margin:.5rem 0}h3{font-size:1rem;margin:1rem 0 .25rem}
nav{display:flex;gap:.25rem;padding:.5rem 1.5rem;border-bottom:1px solid #c8c8c8}
main{padding:0 1.5rem 3rem}
button{font:inherit;padding:.25rem .75rem;border:1px solid #1d4f91;border-radius:4px;background:#1d4f91;color:#fff;cursor:pointer}
button[aria-selected=true]{background:#fff;color:#0b2a52;font-weight:600;box-shadow:inset 0 -3px 0 #0b2a52}
button.quiet{background:#fff;color:#1d4f91}
button:disabled{background:#6b6b6b;border-color:#6b6b6b}
:focus-visible{outline:3px solid #b34700;outline-offset:2px}
input,select,textarea{font:13px ui-monospace,monospace;color:#1b1b1b;background:#fff;border:1px solid #6b6b6b;border-radius:3px;padding:2px 4px}
.fields{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:.5rem 0}
.fields label{display:flex;gap:.35rem;align-items:center}
fieldset{border:1px solid #c8c8c8;margin:.5rem 0}
.scroll{max-height:28rem;overflow:auto;border:1px solid #c8c8c8}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #d6d6d6;padding:3px 6px;text-align:left;vertical-align:top}
td{overflow-wrap:anywhere}
th{background:#eeeef1;position:sticky;top:0}
tbody tr[aria-selected=true]{background:#dde8f7}
tr.s4 td.status{color:#8a4b00}tr.s5 td.status{color:#a40000}
.code{white-space:pre-wrap;word-break:break-all;background:#f5f5f7;border:1px solid #c8c8c8;padding:.5rem;margin:0;font:12px/1.4 ui-monospace,monospace}
.editor{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}
.editor label{grid-column:1/3}
textarea{width:100%;box-sizing:border-box;font:12px/1.4 ui-monospace,monospace}
.lines{margin:0;padding:0 0 0 3.5rem;font:12px/1.4 ui-monospace,monospace;max-height:24rem;overflow:auto;border:1px solid #c8c8c8;background:#f5f5f7}
.lines li{white-space:pre-wrap;word-break:break-all}
.lines li.finding{list-style:none;margin-left:-3rem;padding:2px 4px;border-left:4px solid #a40000;background:#fff;color:#a40000}
.lines li.finding.warning{border-color:#8a4b00;color:#8a4b00}
[data-tone=refused],.refused{color:#a40000}[data-tone=ok]{color:#1f6f43}
button.quiet{padding:0 .35rem;font:12px ui-monospace,monospace}
section.panel{padding-top:.25rem}
.live{font-size:.8rem;font-weight:normal;color:#4a4a4a}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
dialog{border:2px solid #1b1b1b}
`;
