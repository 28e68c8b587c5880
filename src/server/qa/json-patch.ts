/**
 * @module qa/json-patch
 * The two patch forms a stub takes, applied to a copy of an answer: JSON Merge Patch (RFC 7396,
 * an object: members replace, `null` removes, objects merge) and JSON Patch (RFC 6902, an array of
 * operations: add, remove, replace, move, copy, test, on RFC 6901 pointers). No library for either
 * is installed; both are small. A patch that cannot apply throws a PatchError naming the operation.
 */

export class PatchError extends Error {}

type Json = unknown;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: object, name: string) => Object.prototype.hasOwnProperty.call(o, name);

/** RFC 7396: the result of merging `patch` into `target` (neither is changed). */
export function mergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isObject(target) ? structuredClone(target) : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else out[name] = mergePatch(own(out, name) ? out[name] : undefined, value);
  }
  return out;
}

/** RFC 6901: a pointer's reference tokens, unescaped. */
function tokens(pointer: unknown, at: string): string[] {
  if (typeof pointer !== 'string' || (pointer !== '' && !pointer.startsWith('/')))
    throw new PatchError(`${at}: a JSON pointer ("" or starting with "/") is required`);
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function jsonEqual(a: Json, b: Json): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
function canonical(v: Json): Json {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObject(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k])]),
    );
  return v;
}

/** The container of the last token, and that token; throws when the path does not exist. */
function parentOf(doc: Json, path: string[], at: string): [Json, string] {
  let node = doc;
  for (const token of path.slice(0, -1)) node = child(node, token, at);
  return [node, path[path.length - 1]];
}

function arrayIndex(array: unknown[], token: string, at: string, forAdd: boolean): number {
  if (forAdd && token === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token))
    throw new PatchError(`${at}: "${token}" is not an array index`);
  const index = Number(token);
  if (index > array.length || (!forAdd && index === array.length))
    throw new PatchError(`${at}: index ${index} is out of range`);
  return index;
}

function child(node: Json, token: string, at: string): Json {
  if (Array.isArray(node)) return node[arrayIndex(node, token, at, false)];
  if (isObject(node) && own(node, token)) return node[token];
  throw new PatchError(`${at}: no member "${token}"`);
}

function get(doc: Json, path: string[], at: string): Json {
  let node = doc;
  for (const token of path) node = child(node, token, at);
  return node;
}

function add(doc: Json, path: string[], value: Json, at: string): Json {
  if (path.length === 0) return value;
  const [parent, last] = parentOf(doc, path, at);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, at, true), 0, value);
  else if (isObject(parent)) parent[last] = value;
  else throw new PatchError(`${at}: the parent is not an object or array`);
  return doc;
}

function remove(doc: Json, path: string[], at: string): Json {
  if (path.length === 0) throw new PatchError(`${at}: cannot remove the whole document`);
  const [parent, last] = parentOf(doc, path, at);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, at, false), 1);
  else if (isObject(parent) && own(parent, last)) delete parent[last];
  else throw new PatchError(`${at}: no member "${last}"`);
  return doc;
}

/** RFC 6902: the result of applying `operations` to a copy of `target`. */
export function jsonPatch(target: Json, operations: readonly unknown[]): Json {
  let doc = structuredClone(target);
  operations.forEach((operation, i) => {
    const at = `/${i}`;
    if (!isObject(operation)) throw new PatchError(`${at}: an operation object is required`);
    const path = tokens(operation.path, `${at}/path`);
    const value = structuredClone(operation.value);
    const needsValue = ['add', 'replace', 'test'].includes(String(operation.op));
    if (needsValue && !own(operation, 'value')) throw new PatchError(`${at}: value is required`);
    switch (operation.op) {
      case 'add':
        doc = add(doc, path, value, at);
        break;
      case 'remove':
        doc = remove(doc, path, at);
        break;
      case 'replace':
        doc = path.length === 0 ? value : add(remove(doc, path, at), path, value, at);
        break;
      case 'move': {
        const from = tokens(operation.from, `${at}/from`);
        const moved = get(doc, from, at);
        doc = add(remove(doc, from, at), path, moved, at);
        break;
      }
      case 'copy':
        doc = add(
          doc,
          path,
          structuredClone(get(doc, tokens(operation.from, `${at}/from`), at)),
          at,
        );
        break;
      case 'test':
        if (!jsonEqual(get(doc, path, at), value)) throw new PatchError(`${at}: test failed`);
        break;
      default:
        throw new PatchError(`${at}/op: one of add, remove, replace, move, copy, test`);
    }
  });
  return doc;
}

/** A stub's patch applied: an array is a JSON Patch, an object a JSON Merge Patch. */
export const applyPatch = (target: Json, patch: Json): Json =>
  Array.isArray(patch) ? jsonPatch(target, patch) : mergePatch(target, patch);
