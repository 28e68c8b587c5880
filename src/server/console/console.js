// @ts-check
/* global document, location, sessionStorage, navigator, getSelection, window, AbortController, URLSearchParams, HTMLButtonElement, HTMLSelectElement, HTMLElement, setTimeout, clearTimeout */
/**
 * @module console/console
 * The QA console's script: plain DOM, no framework. Everything it shows came from requests the
 * mock received, so it is hostile: it is written only as text (textContent, option values),
 * never as HTML, and control characters and bidi overrides are shown as visible escapes. The admin
 * token lives in sessionStorage and leaves the page only as the x-mock-admin-token header.
 */
const PREFIX = '/__mock';
const TOKEN_KEY = 'mockAdminToken';
const TOKEN_HEADER = 'x-mock-admin-token';
/** Journal rows the page keeps; older ones are dropped. */
const MAX_ROWS = 500;
const POLL_WAIT_MS = 15000;
const CHECK_DELAY_MS = 250;

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @param {string} id */
const select = (id) => /** @type {HTMLSelectElement} */ (document.getElementById(id));

/** Control characters, bidi controls and other invisible marks shown as `\u{...}`. */
const INVISIBLE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
/** @param {unknown} value */
const visible = (value) =>
  String(value).replace(INVISIBLE, (ch) => `\\u{${ch.codePointAt(0)?.toString(16).toUpperCase()}}`);

/**
 * An element with text children only.
 * @param {string} tag
 * @param {{ className?: string, text?: unknown }} [options]
 * @param {(Node | string)[]} [children]
 */
function el(tag, options = {}, children = []) {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = visible(options.text);
  for (const child of children) node.append(typeof child === 'string' ? visible(child) : child);
  return node;
}

/** @param {string} label @param {() => void} onClick @param {string} [className] */
function button(label, onClick, className) {
  const b = /** @type {HTMLButtonElement} */ (el('button', { text: label, className }));
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

/** @param {HTMLElement} node @param {string} text @param {'' | 'ok' | 'refused'} [tone] */
function say(node, text, tone = '') {
  node.textContent = visible(text);
  node.dataset.tone = tone;
}

// ---------------------------------------------------------------- the admin API

let token = sessionStorage.getItem(TOKEN_KEY) ?? '';
/** The scope the console shows (its id), or '' for the mock's own controls. */
let view = '';

/**
 * A call to the admin API of what the console shows: the mock's own, or the scope's
 * (`/__mock/scopes/{id}/...`, the same controls for its requests alone).
 * @param {string} method @param {string} path @param {unknown} [body] @param {AbortSignal} [signal]
 */
async function api(method, path, body, signal) {
  const shown = view;
  const answer = await call(
    method,
    (shown ? `/scopes/${encodeURIComponent(shown)}` : '') + path,
    body,
    signal,
  );
  if (shown && shown === view && answer.status === 404 && /no scope/.test(answer.body?.error))
    void scopeEnded(shown);
  return answer;
}

/**
 * A call to the admin API with the token as its header, never in the URL or a cookie.
 * @param {string} method @param {string} path @param {unknown} [body] @param {AbortSignal} [signal]
 * @returns {Promise<{ status: number, body: any }>}
 */
async function call(method, path, body, signal) {
  /** @type {Record<string, string>} */
  const headers = { [TOKEN_HEADER]: token };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(PREFIX + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
    cache: 'no-store',
    signal,
  });
  const text = await res.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { error: text };
  }
  if (res.status === 401)
    signedOut('The admin token was refused: type the one the mock was started with.');
  return { status: res.status, body: parsed };
}

/** @param {{ body: any }} answer */
const errorOf = (answer) => {
  const details = Array.isArray(answer.body?.details)
    ? answer.body.details
        .map((/** @type {any} */ d) => `${d.name} ${d.rule}: ${d.message}`)
        .join('; ')
    : '';
  return `${answer.body?.error ?? 'failed'}${details ? ` (${details})` : ''}`;
};

// ---------------------------------------------------------------- sign-in and panels

/** @type {any} */
let catalogue = null;
/** @type {AbortController | undefined} */
let polling;

/** @param {string} message */
function signedOut(message) {
  token = '';
  sessionStorage.removeItem(TOKEN_KEY);
  polling?.abort();
  $('main').hidden = true;
  say($('status'), message);
  say($('live'), 'not connected');
}

async function signIn() {
  view = '';
  const answer = await api('GET', '/console/catalogue');
  if (answer.status !== 200) {
    if (answer.status !== 401) signedOut(`The mock answered ${answer.status}: ${errorOf(answer)}`);
    return;
  }
  catalogue = answer.body;
  say($('status'), `Signed in: release ${catalogue.release}.`, 'ok');
  $('main').hidden = false;
  fillCatalogue();
  showPanel('journal');
  startJournal();
  void refreshScopes();
}

// ---------------------------------------------------------------- what the console shows

/** The live scopes, listed in the view selector (the one shown kept while it lives). */
async function refreshScopes() {
  const answer = await call('GET', '/scopes');
  if (answer.status !== 200) {
    say($('view-status'), `The scopes could not be listed: ${errorOf(answer)}`, 'refused');
    return;
  }
  const s = select('view');
  while (s.options.length > 1) s.remove(1);
  addOptions(
    s,
    answer.body.scopes.map((/** @type {any} */ scope) => [
      scope.id,
      `${scope.keyName} (${scope.purpose}, tier ${scope.tier}, idle ${scope.idleSeconds} s)`,
    ]),
  );
  s.value = view;
  const count = answer.body.scopes.length;
  say($('view-status'), `${count} live scope${count === 1 ? '' : 's'}`);
}

/** Shows the scope chosen (or the mock's own): its catalogue, journal and panels. */
async function changeView() {
  view = select('view').value;
  opened = null;
  $('detail').hidden = true;
  const answer = await api('GET', '/console/catalogue');
  if (answer.status !== 200) return;
  catalogue = answer.body;
  fillCatalogue();
  showPanel(document.body.dataset.panel ?? 'journal');
  void startJournal();
  say($('view-status'), view ? `Showing scope-${view}: its requests and controls alone.` : '');
}

/** @param {string} id  A scope that ended while shown: back to the mock's own. */
async function scopeEnded(id) {
  select('view').value = '';
  await changeView();
  await refreshScopes();
  say(
    $('view-status'),
    `scope-${id} ended (closed, or unused past its TTL): showing the mock's own controls.`,
    'refused',
  );
}

/** @param {string} name */
function showPanel(name) {
  for (const tab of Array.from(document.querySelectorAll('nav [role=tab]'))) {
    const on = /** @type {HTMLElement} */ (tab).dataset.panel === name;
    tab.setAttribute('aria-selected', String(on));
    $(`panel-${/** @type {HTMLElement} */ (tab).dataset.panel}`).hidden = !on;
  }
  if (name === 'faults') void refreshArmed();
  if (name === 'stubs') void refreshStubs();
  if (name === 'records') void refreshEdits();
  if (name === 'limits') void refreshLimits();
  document.body.dataset.panel = name;
}

/** @param {HTMLSelectElement} target @param {Iterable<[string, string]>} options */
function addOptions(target, options) {
  for (const [value, label] of options) {
    const option = /** @type {HTMLOptionElement} */ (el('option', { text: label }));
    option.value = value;
    target.append(option);
  }
}

function fillCatalogue() {
  for (const id of ['f-operation', 'fault-operation', 'f-key', 'fault-key', 'record-family']) {
    const s = select(id);
    while (s.options.length > (id === 'fault-operation' || id === 'record-family' ? 0 : 1))
      s.remove(s.options.length - 1);
  }
  const ops = catalogue.operations.map((/** @type {any} */ op) => [
    op.operationId,
    `${op.operationId} (${op.method} ${op.path})`,
  ]);
  addOptions(select('f-operation'), ops);
  addOptions(select('fault-operation'), ops);
  const keys = catalogue.keys.map((/** @type {string} */ k) => [k, k]);
  addOptions(select('f-key'), keys);
  addOptions(select('fault-key'), keys);
  addOptions(
    select('record-family'),
    catalogue.families.map((/** @type {any} */ f) => [f.family, `${f.family} (by ${f.idField})`]),
  );
  const b = catalogue.bounds;
  setBounds(input('fault-delay'), b.delayMs);
  setBounds(input('fault-retry'), b.retryAfterSeconds);
  setBounds(input('fault-slow'), b.slowBytesPerTick);
  setBounds(input('fault-count'), b.count);
  setBounds(input('stub-times'), b.times);
  renderFaultForm();
}

/** @param {HTMLInputElement} target @param {{ minimum?: number, maximum?: number }} bounds */
function setBounds(target, bounds) {
  if (bounds.minimum !== undefined) target.min = String(bounds.minimum);
  if (bounds.maximum !== undefined) target.max = String(bounds.maximum);
  const label = target.closest('label');
  const hint = `${bounds.minimum ?? ''}–${bounds.maximum ?? ''}`;
  if (label && !label.querySelector('.bound'))
    label.append(el('span', { className: 'bound', text: `(${hint})` }));
}

// ---------------------------------------------------------------- the journal, live

/** @type {any[]} */
let rows = [];
/** @type {any} */
let opened = null;

async function startJournal() {
  polling?.abort();
  const controller = new AbortController();
  polling = controller;
  rows = [];
  /** @type {string | undefined} */
  let cursor;
  let first = true;
  while (!controller.signal.aborted) {
    const query = new URLSearchParams({ waitMs: String(first ? 0 : POLL_WAIT_MS) });
    first = false;
    if (cursor !== undefined) query.set('after', cursor);
    let answer;
    try {
      answer = await api('GET', `/requests/poll?${query}`, undefined, controller.signal);
    } catch {
      if (controller.signal.aborted) return;
      say($('live'), 'connection lost; retrying');
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    if (answer.status !== 200) return;
    say($('live'), 'live');
    if (answer.body.gap) rows = [];
    const seen = new Set(rows.map((r) => `${r.id}@${r.instance}`));
    const fresh = answer.body.requests.filter(
      (/** @type {any} */ r) => !seen.has(`${r.id}@${r.instance}`),
    );
    rows = [...fresh, ...rows].slice(0, MAX_ROWS);
    cursor = answer.body.cursor ?? undefined;
    if (fresh.length > 0 || answer.body.gap) {
      renderJournal();
      if (!$('panel-limits').hidden) void refreshLimits();
    }
  }
}

/** @param {any} row */
function answeredBy(row) {
  const parts = [];
  if (row.stub)
    parts.push(`stub ${String(row.stub).slice(0, 8)}${row.unchecked ? ' (unchecked)' : ''}`);
  if (row.stubSkipped) parts.push(`stub skipped: ${row.stubSkipped}`);
  if (row.fault) parts.push(`fault (${row.fault.by}): ${actionText(row.fault.action)}`);
  return parts.join('; ') || 'dataset';
}

/** @param {any} action */
function actionText(action) {
  return Object.entries(action ?? {})
    .map(([name, value]) => (value === true ? name : `${name}=${value}`))
    .join(', ');
}

/** @param {any} row */
function passes(row) {
  const op = select('f-operation').value;
  const status = select('f-status').value;
  const key = select('f-key').value;
  const text = input('f-text').value.toLowerCase();
  if (op && row.operation !== op) return false;
  if (status && String(row.status)[0] !== status) return false;
  if (key && row.key !== key) return false;
  if (text && !JSON.stringify(row).toLowerCase().includes(text)) return false;
  return true;
}

function renderJournal() {
  const body = /** @type {HTMLTableSectionElement} */ ($('journal').querySelector('tbody'));
  const shown = rows.filter(passes);
  const trs = shown.map((row) => {
    const tr = el('tr', { className: `s${String(row.status)[0]}` }, [
      el('td', {}, [button(String(row.at).slice(11, 23), () => openRow(row), 'quiet')]),
      el('td', { text: row.method }),
      el('td', { text: row.path }),
      el('td', { text: row.operation ?? '—' }),
      el('td', { className: 'status', text: row.status }),
      el('td', { text: row.key ?? '—' }),
      el('td', { text: answeredBy(row) }),
    ]);
    tr.dataset.id = String(row.id);
    if (row === opened) tr.setAttribute('aria-selected', 'true');
    tr.addEventListener('click', (event) => {
      if (!(event.target instanceof HTMLButtonElement)) openRow(row);
    });
    return tr;
  });
  body.replaceChildren(...trs);
  say($('journal-count'), `${shown.length} of ${rows.length} kept (at most ${MAX_ROWS})`);
}

/** @param {any} row */
function openRow(row) {
  opened = row;
  $('detail').hidden = false;
  say($('detail-title'), `${row.method} ${row.path}`);
  const detail = {
    params: row.params ?? {},
    query: row.query ?? {},
    headers: row.headers ?? {},
    ...(row.body !== undefined ? { body: row.body } : {}),
    ...(row.bodyText !== undefined
      ? { bodyText: row.bodyText, bodyCut: Boolean(row.bodyCut) }
      : {}),
  };
  say($('detail-json'), JSON.stringify(detail, null, 2));
  say($('detail-curl'), curlOf(row));
  /** @type {HTMLButtonElement} */ ($('stub-this')).disabled = !row.operation;
  renderJournal();
}

/** @param {string} s  A shell word in single quotes. */
const shellWord = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The request as a curl command; the key as `$API_KEY`, never its value. @param {any} row */
function curlOf(row) {
  const parts = ['curl'];
  if (row.method !== 'GET') parts.push('-X', row.method);
  parts.push(shellWord(location.origin + row.path));
  if (row.key && catalogue.keyHeader) parts.push('-H', `"${catalogue.keyHeader}: $API_KEY"`);
  for (const [name, value] of Object.entries(row.headers ?? {})) {
    if (name === 'x-request-id') continue;
    parts.push('-H', shellWord(`${name}: ${value}`));
  }
  if (row.body !== undefined) parts.push('--data-binary', shellWord(JSON.stringify(row.body)));
  else if (row.bodyText !== undefined) parts.push('--data-binary', shellWord(row.bodyText));
  return parts.join(' ');
}

async function copyCurl() {
  if (!opened) return;
  try {
    await navigator.clipboard.writeText(curlOf(opened));
    say($('copy-status'), 'Copied.');
  } catch {
    const range = document.createRange();
    range.selectNodeContents($('detail-curl'));
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
    say($('copy-status'), 'Selected: press Ctrl+C to copy.');
  }
}

// ---------------------------------------------------------------- faults

/** @param {string} operationId */
const operationOf = (operationId) =>
  catalogue.operations.find((/** @type {any} */ op) => op.operationId === operationId);

function renderFaultForm() {
  const op = operationOf(select('fault-operation').value);
  if (!op) return;
  const fields = op.fields.map((/** @type {any} */ f) => {
    const id = `fault-${f.in}-${f.name}`;
    const hint = [f.type === 'array' ? `list of ${f.itemType}, comma-separated` : f.type];
    if (f.offsetUnit === 'page') hint.push('a page index: 0 is the first page');
    if (f.offsetUnit === 'item') hint.push('items to skip');
    if (f.minimum !== undefined) hint.push(`min ${f.minimum}`);
    if (f.maximum !== undefined) hint.push(`max ${f.maximum}`);
    if (f.default !== undefined) hint.push(`default ${JSON.stringify(f.default)}`);
    /** @type {HTMLInputElement | HTMLSelectElement} */
    let control;
    const choices = f.enum ?? (f.type === 'boolean' ? [true, false] : undefined);
    if (choices && f.type !== 'array') {
      control = /** @type {HTMLSelectElement} */ (el('select'));
      addOptions(control, [
        ['', 'any'],
        ...choices.map((/** @type {unknown} */ v) => [JSON.stringify(v), String(v)]),
      ]);
    } else {
      control = /** @type {HTMLInputElement} */ (el('input'));
      if (f.type === 'integer' || f.type === 'number') {
        control.type = 'number';
        if (f.minimum !== undefined) control.min = String(f.minimum);
        if (f.maximum !== undefined) control.max = String(f.maximum);
      }
      control.spellcheck = false;
    }
    control.id = id;
    control.dataset.name = f.name;
    control.dataset.in = f.in;
    control.dataset.type = f.type;
    if (f.itemType) control.dataset.itemType = f.itemType;
    const label = el('label', {}, [
      `${f.in === 'path' ? 'path' : 'query'} ${f.name} `,
      control,
      el('span', { className: 'bound', text: `(${hint.join(', ')})` }),
    ]);
    label.setAttribute('for', id);
    return label;
  });
  $('fault-fields').replaceChildren(
    ...(fields.length
      ? fields
      : [el('span', { text: 'This operation takes no path or query parameters.' })]),
  );
  const status = select('fault-status');
  while (status.options.length > 1) status.remove(1);
  addOptions(
    status,
    op.statuses.map((/** @type {number} */ s) => [String(s), String(s)]),
  );
  syncRetry();
}

function syncRetry() {
  const op = operationOf(select('fault-operation').value);
  const status = Number(select('fault-status').value);
  const retry = input('fault-retry');
  retry.disabled = !op?.retryAfterStatuses.includes(status);
  if (retry.disabled) retry.value = '';
}

/** @param {string} raw @param {string | undefined} type */
function typed(raw, type) {
  if (type === 'integer' || type === 'number') return Number(raw);
  if (type === 'boolean') return raw === 'true';
  return raw;
}

/** The fault the form describes, in the admin API's own shape. */
function faultOfForm() {
  const operationId = select('fault-operation').value;
  /** @type {Record<string, any>} */
  const match = { operationId };
  const params = new Map();
  const query = new Map();
  for (const control of Array.from($('fault-fields').querySelectorAll('input, select'))) {
    const c = /** @type {HTMLInputElement} */ (control);
    if (c.value === '') continue;
    const { name, type, itemType } = c.dataset;
    let value;
    if (c instanceof HTMLSelectElement) value = JSON.parse(c.value);
    else if (type === 'array') value = c.value.split(',').map((v) => typed(v.trim(), itemType));
    else value = typed(c.value, type);
    (c.dataset.in === 'path' ? params : query).set(name, value);
  }
  if (params.size) match.params = Object.fromEntries(params);
  if (query.size) match.query = Object.fromEntries(query);
  if (select('fault-key').value) match.key = select('fault-key').value;
  /** @type {Record<string, unknown>} */
  const fault = { match, count: Number(input('fault-count').value || 1) };
  if (select('fault-status').value) fault.status = Number(select('fault-status').value);
  if (!input('fault-retry').disabled && input('fault-retry').value)
    fault.retryAfterSeconds = Number(input('fault-retry').value);
  if (input('fault-delay').value) fault.delayMs = Number(input('fault-delay').value);
  if (input('fault-reset').checked) fault.reset = true;
  if (input('fault-truncate').checked) fault.truncate = true;
  if (input('fault-slow').value) fault.slowBytesPerTick = Number(input('fault-slow').value);
  return fault;
}

async function armFault() {
  const answer = await api('POST', '/faults', faultOfForm());
  if (answer.status === 201) say($('fault-result'), `Armed ${answer.body.id}.`, 'ok');
  else say($('fault-result'), `Refused: ${errorOf(answer)}`, 'refused');
  await refreshArmed();
}

async function refreshArmed() {
  const answer = await api('GET', '/faults');
  if (answer.status !== 200) return;
  const trs = answer.body.armed.map((/** @type {any} */ f) => {
    const tr = el('tr', {}, [
      el('td', { text: JSON.stringify(f.match) }),
      el('td', { text: actionText(f.action) }),
      el('td', { text: f.remaining }),
      el('td', {}, [
        button('Disarm', async () => {
          await api('DELETE', `/faults/${encodeURIComponent(f.id)}`);
          await refreshArmed();
        }),
      ]),
    ]);
    tr.dataset.id = f.id;
    return tr;
  });
  /** @type {HTMLElement} */ ($('armed').querySelector('tbody')).replaceChildren(...trs);
}

// ---------------------------------------------------------------- JSON editors with the live check

/**
 * The line each JSON pointer's value starts on, read from the text itself.
 * @param {string} text
 * @returns {Map<string, number>}
 */
function pointerLines(text) {
  const lines = new Map();
  let i = 0;
  let line = 1;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i])) {
      if (text[i] === '\n') line += 1;
      i += 1;
    }
  };
  const string = () => {
    const start = i;
    i += 1;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i += 1;
    return JSON.parse(text.slice(start, i));
  };
  const escape = (/** @type {string} */ s) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  /** @param {string} pointer @param {number} depth */
  const value = (pointer, depth) => {
    skip();
    if (depth > 64) throw new Error('too deep');
    lines.set(pointer, line);
    if (text[i] === '{' || text[i] === '[') {
      const object = text[i] === '{';
      i += 1;
      let index = 0;
      skip();
      while (i < text.length && text[i] !== (object ? '}' : ']')) {
        let name = String(index);
        if (object) {
          skip();
          name = string();
          skip();
          i += 1; // the colon
        }
        value(`${pointer}/${escape(name)}`, depth + 1);
        index += 1;
        skip();
        if (text[i] === ',') i += 1;
        skip();
      }
      i += 1;
    } else if (text[i] === '"') string();
    else while (i < text.length && /[^,\]}\s]/.test(text[i])) i += 1;
  };
  try {
    value('', 0);
  } catch {
    // a text that is not JSON: the lines found so far
  }
  return lines;
}

/** The line a pointer names: its own, else its nearest parent's. @param {Map<string, number>} lines @param {string} pointer */
function lineOfPointer(lines, pointer) {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const at = lines.get(p);
    if (at !== undefined || p === '') return at ?? 1;
  }
}

/**
 * Shows the text line by line with each finding beside the line it names.
 * @param {HTMLElement} list @param {string} text @param {{ refusals: any[], warnings: any[] }} verdict
 */
function renderFindings(list, text, verdict) {
  const lines = pointerLines(text);
  /** @type {Map<number, HTMLElement[]>} */
  const byLine = new Map();
  const add = (/** @type {any} */ finding, /** @type {boolean} */ warning) => {
    const at = lineOfPointer(lines, finding.pointer);
    const item = el('li', {
      className: warning ? 'finding warning' : 'finding',
      text: `${warning ? 'warning' : 'refused'}: "${finding.pointer}" ${finding.message}${finding.source ? ` (${finding.source})` : ''} — ${finding.rule}`,
    });
    item.dataset.pointer = finding.pointer;
    item.dataset.line = String(at);
    byLine.set(at, [...(byLine.get(at) ?? []), item]);
  };
  for (const f of verdict.refusals) add(f, false);
  for (const f of verdict.warnings) add(f, true);
  /** @type {HTMLElement[]} */
  const items = [];
  text.split('\n').forEach((content, index) => {
    const li = /** @type {HTMLLIElement} */ (el('li', { text: content || ' ' }));
    li.value = index + 1; // a finding between lines takes no number
    li.dataset.line = String(index + 1);
    items.push(li, ...(byLine.get(index + 1) ?? []));
  });
  list.replaceChildren(...items);
  // The first finding in view, with the line it names just above it.
  const first = list.querySelector('li.finding');
  if (first instanceof HTMLElement)
    list.scrollTop = Math.max(0, first.offsetTop - list.offsetTop - 60);
}

/** @param {string} text */
function parseJson(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: String(/** @type {Error} */ (error).message) };
  }
}

/**
 * Runs `check` a moment after the last keystroke; only the newest check's answer is shown.
 * @param {HTMLTextAreaElement} area @param {() => Promise<void>} check
 */
function liveCheck(area, check) {
  let timer = 0;
  area.addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => void check(), CHECK_DELAY_MS);
  });
}

/**
 * Shows a verdict: counts, and each finding beside its line.
 * @param {string} prefix  `stub` or `record` @param {string} text @param {any} verdict
 */
function showVerdict(prefix, text, verdict) {
  renderFindings($(`${prefix}-lines`), text, verdict);
  const node = $(`${prefix}-verdict`);
  if (verdict.ok)
    say(
      node,
      `The contract accepts it${verdict.warnings.length ? ` (${verdict.warnings.length} warnings)` : ''}.`,
      'ok',
    );
  else
    say(
      node,
      `Refused: ${verdict.refusals.length} problem(s), shown beside their lines.`,
      'refused',
    );
  node.dataset.ok = String(verdict.ok);
}

// ---------------------------------------------------------------- stubs

/** @type {{ operationId: string, match: any, answer: any } | null} */
let stubbing = null;

/** @param {any} a */
const isObject = (a) => a !== null && typeof a === 'object' && !Array.isArray(a);

/** The merge patch (RFC 7396) that turns `from` into `to`. @param {any} from @param {any} to */
function mergePatchOf(from, to) {
  if (!isObject(from) || !isObject(to)) return to;
  /** @type {Record<string, unknown>} */
  const patch = {};
  const put = (/** @type {string} */ name, /** @type {unknown} */ v) =>
    Object.defineProperty(patch, name, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  for (const name of Object.keys(from)) if (!Object.hasOwn(to, name)) put(name, null);
  for (const name of Object.keys(to)) {
    if (!Object.hasOwn(from, name)) put(name, to[name]);
    else if (JSON.stringify(from[name]) !== JSON.stringify(to[name]))
      put(name, mergePatchOf(from[name], to[name]));
  }
  return patch;
}

async function stubThis() {
  if (!opened?.operation) return;
  const match = {
    operationId: opened.operation,
    ...(opened.params ? { params: opened.params } : {}),
    ...(opened.query ? { query: opened.query } : {}),
  };
  const answer = await api('POST', '/console/answer', { match });
  showPanel('stubs');
  if (answer.status !== 200) {
    say($('stub-help'), `No answer to stub: ${errorOf(answer)}`, 'refused');
    return;
  }
  stubbing = { operationId: opened.operation, match, answer: answer.body };
  $('stub-editor').hidden = false;
  say($('stub-operation'), stubbing.operationId);
  say($('stub-match'), JSON.stringify(match));
  input('stub-status').value = String(answer.body.status);
  const area = /** @type {HTMLTextAreaElement} */ ($('stub-json'));
  area.value = JSON.stringify(answer.body.body, null, 2);
  area.focus();
  await checkStub();
}

/** The stub the editor describes, or the reason it is not JSON. */
function stubOfEditor() {
  if (!stubbing) return { ok: false, message: 'nothing to stub' };
  const parsed = parseJson(/** @type {HTMLTextAreaElement} */ ($('stub-json')).value);
  if (!parsed.ok) return parsed;
  /** @type {Record<string, unknown>} */
  const stub = { match: stubbing.match };
  if (select('stub-mode').value === 'patch')
    stub.patch = mergePatchOf(stubbing.answer.body, parsed.value);
  else stub.respond = { status: Number(input('stub-status').value), body: parsed.value };
  if (input('stub-times').value) stub.times = Number(input('stub-times').value);
  return { ok: true, value: stub };
}

async function checkStub() {
  const text = /** @type {HTMLTextAreaElement} */ ($('stub-json')).value;
  const stub = stubOfEditor();
  if (!stub.ok) {
    showVerdict('stub', text, {
      ok: false,
      refusals: [{ pointer: '', message: `not JSON: ${stub.message}`, rule: 'JSON' }],
      warnings: [],
    });
    return;
  }
  const answer = await api('POST', '/stubs', { ...stub.value, dryRun: true });
  if (text !== /** @type {HTMLTextAreaElement} */ ($('stub-json')).value) return; // a newer check follows
  if (answer.status === 200) showVerdict('stub', text, answer.body);
  else
    showVerdict('stub', text, {
      ok: false,
      refusals: [{ pointer: '', message: errorOf(answer), rule: 'admin API' }],
      warnings: [],
    });
}

async function addStub() {
  const stub = stubOfEditor();
  if (!stub.ok) return;
  const answer = await api('POST', '/stubs', stub.value);
  if (answer.status === 201) say($('stub-verdict'), `Stub ${answer.body.id} added.`, 'ok');
  else say($('stub-verdict'), `Refused: ${errorOf(answer)}`, 'refused');
  await refreshStubs();
}

async function refreshStubs() {
  const answer = await api('GET', '/stubs');
  if (answer.status !== 200) return;
  const trs = answer.body.stubs.map((/** @type {any} */ s) => {
    const tr = el('tr', {}, [
      el('td', { text: s.id }),
      el('td', { text: JSON.stringify(s.match) }),
      el('td', { text: JSON.stringify(s.patch ?? s.respond).slice(0, 300) }),
      el('td', { text: s.remaining ?? 'until removed' }),
      el('td', {}, [
        button('Remove', async () => {
          await api('DELETE', `/stubs/${encodeURIComponent(s.id)}`);
          await refreshStubs();
        }),
      ]),
    ]);
    tr.dataset.id = s.id;
    return tr;
  });
  /** @type {HTMLElement} */ ($('stubs').querySelector('tbody')).replaceChildren(...trs);
}

// ---------------------------------------------------------------- records

const recordPath = () =>
  `/${encodeURIComponent(select('record-family').value)}/${encodeURIComponent(input('record-id').value)}`;

async function findRecord() {
  const answer = await api('GET', `/console/records${recordPath()}`);
  if (answer.status !== 200) {
    say($('record-result'), `Not found: ${errorOf(answer)}`, 'refused');
    $('record-editor').hidden = false;
    return;
  }
  $('record-editor').hidden = false;
  say($('record-result'), '');
  /** @type {HTMLTextAreaElement} */ ($('record-json')).value = JSON.stringify(
    answer.body.record,
    null,
    2,
  );
  await checkRecord();
}

async function checkRecord() {
  const text = /** @type {HTMLTextAreaElement} */ ($('record-json')).value;
  const parsed = parseJson(text);
  if (!parsed.ok) {
    showVerdict('record', text, {
      ok: false,
      refusals: [{ pointer: '', message: `not JSON: ${parsed.message}`, rule: 'JSON' }],
      warnings: [],
    });
    return;
  }
  const answer = await api(
    'POST',
    `/console/records/${encodeURIComponent(select('record-family').value)}/check`,
    parsed.value,
  );
  if (text !== /** @type {HTMLTextAreaElement} */ ($('record-json')).value) return;
  if (answer.status === 200) showVerdict('record', text, answer.body);
  else
    showVerdict('record', text, {
      ok: false,
      refusals: [{ pointer: '', message: errorOf(answer), rule: 'admin API' }],
      warnings: [],
    });
}

async function putRecord() {
  const parsed = parseJson(/** @type {HTMLTextAreaElement} */ ($('record-json')).value);
  if (!parsed.ok) return;
  const answer = await api('PUT', `/records${recordPath()}`, parsed.value);
  if (answer.status === 200 || answer.status === 201)
    say($('record-result'), answer.status === 201 ? 'Added.' : 'Replaced.', 'ok');
  else say($('record-result'), `Refused: ${errorOf(answer)}`, 'refused');
  await refreshEdits();
}

async function removeRecord() {
  const answer = await api('DELETE', `/records${recordPath()}`);
  say(
    $('record-result'),
    answer.status === 200 ? 'Removed.' : `Refused: ${errorOf(answer)}`,
    answer.status === 200 ? 'ok' : 'refused',
  );
  await refreshEdits();
}

async function refreshEdits() {
  const answer = await api('GET', '/records');
  if (answer.status !== 200) return;
  const trs = answer.body.edits.map((/** @type {any} */ e, /** @type {number} */ i) =>
    el('tr', {}, [
      el('td', { text: i + 1 }),
      el('td', { text: e.op }),
      el('td', { text: e.family }),
      el('td', { text: e.id }),
    ]),
  );
  /** @type {HTMLElement} */ ($('edits').querySelector('tbody')).replaceChildren(...trs);
}

// ---------------------------------------------------------------- clock and limits

/** @param {any} w */
const windowText = (w) =>
  `${w.left} of ${w.limit} left${w.resetsAt ? `, resets ${w.resetsAt.slice(11, 19)}` : ''}`;

async function refreshLimits() {
  const answer = await api('GET', '/limits');
  if (answer.status !== 200) return;
  say($('clock-now'), `Mock clock: ${answer.body.now}`);
  const trs = answer.body.keys.map((/** @type {any} */ k) => {
    const tr = el('tr', {}, [
      el('td', { text: k.name }),
      el('td', { text: k.tier }),
      ...k.windows.map((/** @type {any} */ w) => el('td', { text: windowText(w) })),
      el('td', { text: `${k.slots.inUse} of ${k.slots.limit} in use` }),
      el('td', {
        className: k.next.refused ? 'refused' : '',
        text: k.next.refused
          ? `429 (${k.next.kind}), Retry-After: ${k.next.retryAfterSeconds ?? 'unknown'}`
          : 'admitted',
      }),
    ]);
    tr.dataset.key = k.name;
    tr.dataset.refused = String(k.next.refused);
    return tr;
  });
  /** @type {HTMLElement} */ ($('limits').querySelector('tbody')).replaceChildren(...trs);
}

async function advanceClock() {
  const answer = await api('POST', '/clock/advance', {
    seconds: Number(input('clock-seconds').value),
  });
  if (answer.status !== 200) say($('clock-now'), `Refused: ${errorOf(answer)}`, 'refused');
  await refreshLimits();
}

// ---------------------------------------------------------------- reset

async function resetAll() {
  /** @type {HTMLDialogElement} */ ($('reset-dialog')).close();
  const answer = await api('POST', '/reset');
  say(
    $('reset-result'),
    answer.status === 200
      ? view
        ? 'The scope was reset.'
        : 'Everything was reset.'
      : `Refused: ${errorOf(answer)}`,
    answer.status === 200 ? 'ok' : 'refused',
  );
  opened = null;
  $('detail').hidden = true;
  void startJournal();
  renderJournal();
}

// ---------------------------------------------------------------- wiring

function wire() {
  $('signin').addEventListener('submit', (event) => {
    event.preventDefault();
    token = input('token').value;
    if (!token) {
      say($('status'), 'Type the admin token first.');
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, token);
    void signIn();
  });
  $('signout').addEventListener('click', () => {
    input('token').value = '';
    signedOut('Signed out.');
  });
  for (const tab of Array.from(document.querySelectorAll('nav [role=tab]')))
    tab.addEventListener('click', () =>
      showPanel(/** @type {string} */ (/** @type {HTMLElement} */ (tab).dataset.panel)),
    );
  for (const id of ['f-operation', 'f-status', 'f-key', 'f-text'])
    $(id).addEventListener('input', renderJournal);
  $('copy-curl').addEventListener('click', () => void copyCurl());
  $('stub-this').addEventListener('click', () => void stubThis());
  select('fault-operation').addEventListener('change', renderFaultForm);
  select('fault-status').addEventListener('change', syncRetry);
  $('fault-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void armFault();
  });
  liveCheck(/** @type {HTMLTextAreaElement} */ ($('stub-json')), checkStub);
  select('stub-mode').addEventListener('change', () => {
    input('stub-status').disabled = select('stub-mode').value === 'patch';
    void checkStub();
  });
  $('stub-add').addEventListener('click', () => void addStub());
  $('record-find').addEventListener('submit', (event) => {
    event.preventDefault();
    void findRecord();
  });
  liveCheck(/** @type {HTMLTextAreaElement} */ ($('record-json')), checkRecord);
  $('record-put').addEventListener('click', () => void putRecord());
  $('record-remove').addEventListener('click', () => void removeRecord());
  $('clock-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void advanceClock();
  });
  $('limits-refresh').addEventListener('click', () => void refreshLimits());
  $('reset-open').addEventListener('click', () => {
    say($('reset-question'), view ? `Reset scope-${view}?` : 'Reset everything on this mock?');
    say($('reset-confirm'), view ? 'Reset this scope' : 'Reset everything');
    /** @type {HTMLDialogElement} */ ($('reset-dialog')).showModal();
  });
  select('view').addEventListener('change', () => void changeView());
  $('view-refresh').addEventListener('click', () => void refreshScopes());
  $('reset-cancel').addEventListener('click', () =>
    /** @type {HTMLDialogElement} */ ($('reset-dialog')).close(),
  );
  $('reset-confirm').addEventListener('click', () => void resetAll());
  if (token) void signIn();
  else say($('status'), 'Not signed in.');
  document.body.dataset.ready = 'true';
}

wire();
