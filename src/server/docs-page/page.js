// @ts-check
/* global document, location, Headers, URL */
/**
 * The script of the mock's `/docs` page (served by src/server/docs-page/docs.ts as it is: no framework, no
 * build step). It reads the page's settings (`/docs/config.json`) and the document with this mock's
 * working examples filled in, then lists every operation by tag: method, path, summary, parameters
 * and responses with their kind of fact (`x-source`), and a form whose "Send" sends the example
 * request to this mock with the key from the key field and shows the answer.
 * Every string of the document or of an answer reaches the page as a text node or an input's
 * value, never as HTML; a description's inline code and links become `<code>` and `<a>` elements
 * around text nodes (`prose`).
 */

/** Characters of an answer's body shown at most: a long list stays readable and the tab quick. */
const MAX_SHOWN_CHARS = 100_000;
/** `$ref`s followed in a row at most (a cycle in the document ends here). */
const MAX_REF_DEPTH = 20;
const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];

/** @typedef {Record<string, any>} Json */

/** @param {unknown} value @returns {value is Json} */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** @param {unknown} value */
const text = (value) => (typeof value === 'string' ? value : '');

/**
 * An element with a class and children; strings become text nodes.
 * @param {string} tag
 * @param {string} [className]
 * @param {...(Node | string | null | undefined)} children
 */
function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** Inline code (`x`) and links ([text](url)) in a description: the only Markdown rendered. */
const INLINE = /`([^`\n]+)`|\[([^\]\n]+)\]\(([^)\s]+)\)/g;

/**
 * A description with its inline code as `<code>` and its links as `<a>`, built from text nodes
 * (never parsed as HTML); a link only to http(s), or to a path or fragment of this page.
 * @param {unknown} value
 * @returns {DocumentFragment}
 */
function prose(value) {
  const out = document.createDocumentFragment();
  const source = text(value);
  let at = 0;
  for (const match of source.matchAll(INLINE)) {
    out.append(source.slice(at, match.index));
    const [whole, code, label, href] = match;
    if (code !== undefined) out.append(el('code', '', code));
    else if (/^(https?:\/\/|\/|#)/i.test(href)) {
      const link = /** @type {HTMLAnchorElement} */ (el('a', '', label));
      link.href = href;
      if (/^https?:/i.test(href)) link.rel = 'noopener noreferrer';
      out.append(link);
    } else out.append(whole);
    at = (match.index ?? 0) + whole.length;
  }
  out.append(source.slice(at));
  return out;
}

/**
 * The node a local `$ref` (`#/components/...`) points at, or `{}`.
 * @param {Json} document
 * @param {unknown} node
 * @returns {Json}
 */
function resolve(document, node) {
  let current = node;
  for (let depth = 0; depth < MAX_REF_DEPTH && isObject(current); depth++) {
    const ref = current.$ref;
    if (typeof ref !== 'string') return current;
    current = ref.startsWith('#/') ? pointer(document, ref.slice(2)) : undefined;
  }
  return isObject(current) && typeof current.$ref !== 'string' ? current : {};
}

/** @param {Json} document @param {string} path a JSON pointer without its `#/` */
function pointer(document, path) {
  /** @type {unknown} */
  let at = document;
  for (const raw of path.split('/')) {
    let key;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined; // malformed percent-encoding: a reference to nothing
    }
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/**
 * A node's kind of fact: its own mark, else the mark of what it refers to, else its parent's.
 * @param {Json} node @param {Json} target @param {string} inherited
 */
const kindOf = (node, target, inherited) =>
  text(node['x-source']) || text(target['x-source']) || inherited;

/** @param {string} kind */
const kindBadge = (kind) => el('span', `kind kind-${kind.replace(/[^a-z]/g, '')}`, kind || '—');

/**
 * A schema in a few words: `string`, `array of integer`, `one of: asc, desc`.
 * @param {Json} document @param {unknown} schemaNode
 * @returns {string}
 */
function typeOf(document, schemaNode) {
  const schema = resolve(document, schemaNode);
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.map(String).join(', ')}`;
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : text(schema.type);
  if (type === 'array') return `array of ${typeOf(document, schema.items)}`;
  return type || (schema.properties ? 'object' : 'any');
}

/**
 * @typedef {{ method: string, path: string, operation: Json, parameters: Json[], kind: string }} Operation
 */

/**
 * Every operation of the document, grouped by its first tag in the order of the document's `tags`.
 * @param {Json} document
 * @returns {Map<string, Operation[]>}
 */
function operationsByTag(document) {
  /** @type {Map<string, Operation[]>} */
  const byTag = new Map();
  for (const tag of Array.isArray(document.tags) ? document.tags : [])
    if (isObject(tag) && text(tag.name)) byTag.set(tag.name, []);
  const paths = isObject(document.paths) ? document.paths : {};
  for (const [path, pathItemNode] of Object.entries(paths)) {
    const pathItem = resolve(document, pathItemNode);
    const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      // An operation's own parameter replaces a shared one of the same name and place.
      /** @type {Map<string, Json>} */
      const parameters = new Map();
      for (const node of [...shared, ...own]) {
        const parameter = resolve(document, node);
        parameters.set(`${text(parameter.in)} ${text(parameter.name)}`, node);
      }
      const tag = text(operation.tags?.[0]) || 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)?.push({
        method,
        path,
        operation,
        parameters: [...parameters.values()],
        kind: kindOf(operation, pathItem, ''),
      });
    }
  }
  return byTag;
}

/**
 * @param {string} className
 * @param {string[]} headings
 * @param {(Node | string)[][]} rows
 */
function table(className, headings, rows) {
  const head = el('tr', '', ...headings.map((h) => el('th', '', h)));
  const body = rows.map((cells) => el('tr', '', ...cells.map((c) => el('td', '', c))));
  return el('table', className, el('thead', '', head), el('tbody', '', ...body));
}

/** @param {Json} document @param {Operation} op */
function parametersTable(document, op) {
  const rows = op.parameters.map((node) => {
    const parameter = resolve(document, node);
    return [
      el('code', '', text(parameter.name)),
      text(parameter.in),
      typeOf(document, parameter.schema),
      parameter.required === true ? 'yes' : 'no',
      kindBadge(kindOf(isObject(node) ? node : {}, parameter, op.kind)),
      el('span', 'text', prose(parameter.description)),
    ];
  });
  return table('parameters', ['Name', 'In', 'Type', 'Required', 'Kind', 'Description'], rows);
}

/** @param {Json} document @param {Operation} op */
function responsesTable(document, op) {
  const responses = isObject(op.operation.responses) ? op.operation.responses : {};
  const rows = Object.entries(responses).map(([status, node]) => {
    const response = resolve(document, node);
    const types = isObject(response.content) ? Object.keys(response.content).join(', ') : '';
    return [
      el('code', '', status),
      el('span', 'text', prose(response.description)),
      types,
      kindBadge(kindOf(isObject(node) ? node : {}, response, op.kind)),
    ];
  });
  return el(
    'details',
    'responses',
    el('summary', '', `Responses (${rows.length})`),
    table('responses', ['Status', 'Description', 'Content', 'Kind'], rows),
  );
}

/**
 * @typedef {{ apiPath: string, keyHeader: string | undefined, keyInput: HTMLInputElement }} Sender
 */

/**
 * The example request as a form (path parameters, query, JSON body), its "Send" button and the
 * answer once sent.
 * @param {Json} document @param {Operation} op @param {Sender} sender
 */
function requestForm(document, op, sender) {
  /** @type {Map<string, HTMLInputElement>} */
  const pathInputs = new Map();
  const fields = el('div', 'fields');
  for (const node of op.parameters) {
    const parameter = resolve(document, node);
    if (parameter.in !== 'path') continue;
    const input = /** @type {HTMLInputElement} */ (el('input'));
    input.name = text(parameter.name);
    const example = parameter.example ?? (isObject(node) ? node.example : undefined);
    input.value = example === undefined ? '' : String(example);
    pathInputs.set(input.name, input);
    fields.append(el('label', '', el('code', '', `{${input.name}}`), ' ', input));
  }
  const query = /** @type {HTMLInputElement} */ (el('input', 'query'));
  query.placeholder = 'name=value&…';
  const takesQuery = op.parameters.some((node) => resolve(document, node).in === 'query');
  if (takesQuery) fields.append(el('label', '', 'query ', query));
  const bodyExample = op.operation.requestBody
    ? resolve(document, op.operation.requestBody).content?.['application/json']?.example
    : undefined;
  const body = /** @type {HTMLTextAreaElement} */ (el('textarea', 'body'));
  if (bodyExample !== undefined) {
    body.value = JSON.stringify(bodyExample, null, 2);
    body.rows = Math.min(12, body.value.split('\n').length + 1);
    fields.append(el('label', 'body-label', 'JSON body', body));
  }
  const button = /** @type {HTMLButtonElement} */ (el('button', 'send', 'Send'));
  button.type = 'button';
  const statusLine = el('p', 'result-status');
  const answer = el('pre', 'result-body');
  const result = el('div', 'result', statusLine, answer);
  result.hidden = true;
  button.addEventListener('click', () => {
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name) =>
      encodeURIComponent(pathInputs.get(name)?.value ?? ''),
    );
    const search = query.value.trim().replace(/^\?/, '');
    const url = `${sender.apiPath}${path}${search ? `?${search}` : ''}`;
    const headers = new Headers();
    const key = sender.keyInput.value;
    if (sender.keyHeader && key) headers.set(sender.keyHeader, key);
    const init = {
      method: op.method.toUpperCase(),
      headers,
      body: /** @type {string | undefined} */ (undefined),
    };
    if (bodyExample !== undefined) {
      headers.set('content-type', 'application/json');
      init.body = body.value;
    }
    result.hidden = false;
    statusLine.textContent = `${init.method} ${url} …`;
    answer.textContent = '';
    button.disabled = true;
    send(url, init, statusLine, answer).finally(() => (button.disabled = false));
  });
  return el('div', 'request', fields, button, result);
}

/**
 * Sends one request and shows its status line and body (JSON indented, other text as it is,
 * a file as its size). The status line is marked answered (`data-status`) once the body is
 * shown too, so whoever waits for the mark finds both.
 * @param {string} url @param {RequestInit & { method: string }} init
 * @param {HTMLElement} statusLine @param {HTMLElement} answer
 */
async function send(url, init, statusLine, answer) {
  try {
    const response = await fetch(url, init);
    const type = response.headers.get('content-type') ?? '';
    statusLine.textContent = `${init.method} ${url}: HTTP ${response.status} ${response.statusText}${type ? `, ${type}` : ''}`;
    answer.textContent = await shownBody(response, init.method, type);
    statusLine.dataset.status = String(response.status);
  } catch (error) {
    statusLine.dataset.status = 'failed';
    statusLine.textContent = `${init.method} ${url}: failed (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * What the page shows of a response's body.
 * @param {Response} response @param {string} method @param {string} type
 * @returns {Promise<string>}
 */
async function shownBody(response, method, type) {
  if (method === 'HEAD')
    return `(no body: HEAD; content-length ${response.headers.get('content-length') ?? 'not sent'})`;
  if (!/json|^text\//.test(type))
    return `(${(await response.arrayBuffer()).byteLength} bytes of ${type || 'an unnamed type'})`;
  let shown = await response.text();
  if (type.includes('json')) {
    try {
      shown = JSON.stringify(JSON.parse(shown), null, 2);
    } catch {
      // Shown as sent: a body that says it is JSON and is not is worth seeing whole.
    }
  }
  return shown.length > MAX_SHOWN_CHARS
    ? `${shown.slice(0, MAX_SHOWN_CHARS)}\n… (${shown.length - MAX_SHOWN_CHARS} more characters)`
    : shown;
}

/** @param {Json} document @param {Operation} op @param {Sender} sender */
function operationSection(document, op, sender) {
  const { operation } = op;
  const id = text(operation.operationId);
  const section = el(
    'section',
    'operation',
    el(
      'h3',
      '',
      el('span', `method method-${op.method}`, op.method.toUpperCase()),
      ' ',
      el('code', 'path', op.path),
      ' ',
      el('span', 'summary', text(operation.summary)),
    ),
    el(
      'p',
      'meta',
      el('code', '', id),
      ' kind: ',
      kindBadge(op.kind),
      text(operation['x-since']) ? ` since ${operation['x-since']}` : '',
    ),
    text(operation.description) ? el('p', 'text', prose(operation.description)) : null,
    op.parameters.length > 0 ? parametersTable(document, op) : null,
    requestForm(document, op, sender),
    responsesTable(document, op),
  );
  section.id = `op-${id}`;
  section.dataset.operationId = id;
  return section;
}

/** The document's API key header (`in: header` security scheme), if it has one. @param {Json} document */
function keyHeaderOf(document) {
  const schemes = isObject(document.components?.securitySchemes)
    ? document.components.securitySchemes
    : {};
  for (const node of Object.values(schemes)) {
    const scheme = resolve(document, node);
    if (scheme.type === 'apiKey' && scheme.in === 'header' && text(scheme.name)) return scheme.name;
  }
  return undefined;
}

/** @param {string} url */
async function getJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return /** @type {Promise<Json>} */ (response.json());
}

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

async function main() {
  const loadStatus = byId('load-status');
  try {
    const config = await getJson(document.body.dataset.config ?? '');
    const spec = await getJson(text(config.document));
    const info = isObject(spec.info) ? spec.info : {};
    byId('title').textContent = `${text(info.title)} ${text(info.version)} (mock)`;
    const base = new URL(text(config.apiBaseUrl), location.href);
    byId('base-url').textContent = base.href;
    const keyInput = /** @type {HTMLInputElement} */ (byId('api-key'));
    keyInput.value = text(config.demoKey);
    const keyHeader = keyHeaderOf(spec);
    byId('key-header').textContent = keyHeader ?? '(the document names no key header)';
    byId('about').append(prose(info.description));
    // Sent to this page's own origin (the mock that served it; the page's CSP allows no other).
    const sender = { apiPath: base.pathname.replace(/\/$/, ''), keyHeader, keyInput };
    const contents = byId('contents');
    const main = byId('operations');
    for (const [tag, operations] of operationsByTag(spec)) {
      if (operations.length === 0) continue;
      const tagInfo = (Array.isArray(spec.tags) ? spec.tags : []).find(
        (t) => isObject(t) && t.name === tag,
      );
      main.append(el('h2', '', tag), el('p', 'text', prose(tagInfo?.description)));
      const links = el('ul');
      for (const op of operations) {
        const section = operationSection(spec, op, sender);
        main.append(section);
        const link = /** @type {HTMLAnchorElement} */ (
          el('a', '', `${op.method.toUpperCase()} ${op.path}`)
        );
        link.href = `#${section.id}`;
        links.append(el('li', '', link));
      }
      contents.append(el('h2', '', tag), links);
    }
    loadStatus.remove();
    document.body.dataset.ready = 'true';
  } catch (error) {
    loadStatus.textContent = `Could not load the document: ${error instanceof Error ? error.message : String(error)}`;
  }
}

void main();

// A module (the page loads it as one), so none of its names is a global of the TypeScript program.
export {};
