/**
 * @module docs-page/shell
 * The fixed parts of the `/docs` page: its HTML (no value from the document or the options is
 * written into it; page.js fills everything in as text), its style sheet, and the Content Security
 * Policy that lets the page load and call only the mock that served it.
 */

/** Where the page's files live under the page's own path. */
export const assetPaths = (docsPath: string) => ({
  script: `${docsPath}/assets/docs.js`,
  style: `${docsPath}/assets/docs.css`,
  config: `${docsPath}/config.json`,
});

/** This origin only; no inline script or style, no frames, no forms sent anywhere. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function pageHtml(docsPath: string): string {
  const paths = assetPaths(docsPath);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Web Data API (mock) reference</title>
<link rel="stylesheet" href="${paths.style}">
<script type="module" src="${paths.script}"></script>
</head>
<body data-config="${paths.config}">
<header>
<h1 id="title">Web Data API (mock) reference</h1>
<p>Base URL: <code id="base-url"></code>. "Send" sends an operation's example request to this mock.</p>
<p><label for="api-key">API key, sent as <code id="key-header"></code></label>
<input id="api-key" autocomplete="off" spellcheck="false"></p>
<details><summary>About this document (and its kinds of fact)</summary><div id="about" class="text"></div></details>
</header>
<div class="columns">
<nav id="contents" aria-label="Operations"></nav>
<main id="operations"><p id="load-status">Loading the document…</p></main>
</div>
</body>
</html>
`;
}

export const PAGE_STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1b1b1b}
header{padding:1rem 2rem;border-bottom:1px solid #ddd;background:#f7f7f9}
h1{font-size:1.4rem;margin:0 0 .5rem}
h2{font-size:1.15rem;margin:2rem 0 .25rem}
h3{font-size:1rem;margin:0 0 .25rem}
.columns{display:flex;align-items:flex-start}
nav{position:sticky;top:0;flex:0 0 17rem;max-height:100vh;overflow:auto;padding:0 1rem;font-size:13px}
nav h2{font-size:.95rem;margin:1rem 0 .25rem}
nav ul{list-style:none;margin:0;padding:0}
nav a{color:#1b1b1b;text-decoration:none;word-break:break-all}
main{flex:1;min-width:0;padding:0 2rem 4rem}
.operation{border:1px solid #ddd;border-radius:6px;padding:.75rem 1rem;margin:.75rem 0}
.method{display:inline-block;min-width:3.5rem;text-align:center;border-radius:4px;color:#fff;background:#555;font-size:12px;padding:1px 4px}
.method-get{background:#1f6f43}.method-post{background:#1d4f91}.method-head{background:#6b4b8a}
.path{font-weight:600}
.meta{color:#555;margin:.25rem 0}
.text{white-space:pre-wrap}
.kind{border-radius:3px;padding:0 4px;font-size:12px;background:#eee}
.kind-documented{background:#dff0d8}.kind-reference{background:#d9edf7}.kind-inferred{background:#fcf8e3}
table{border-collapse:collapse;margin:.5rem 0;width:100%}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3}
.fields{display:flex;flex-wrap:wrap;gap:.5rem 1rem;margin:.5rem 0}
.fields label{display:flex;gap:.25rem;align-items:center}
.body-label{flex-direction:column;align-items:flex-start!important;width:100%}
textarea{width:100%;font:12px/1.4 ui-monospace,monospace}
input{font:13px ui-monospace,monospace}
#api-key{width:22rem}
.send{font-weight:600}
.result-status{font-weight:600;margin:.5rem 0 .25rem}
.result-body{max-height:24rem;overflow:auto;background:#f7f7f9;border:1px solid #ddd;padding:.5rem;margin:0}
`;
