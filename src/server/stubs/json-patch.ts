/**
 * @module stubs/json-patch
 * The two patch forms a stub takes, applied to a copy of an answer: JSON Merge Patch (RFC 7396,
 * an object: members replace, `null` removes, objects merge) and JSON Patch (RFC 6902, an array of
 * operations: add, remove, replace, move, copy, test, on RFC 6901 pointers). No library for either
 * is installed; both are small. A patch that cannot apply throws a PatchError naming the operation.
 *
 * A patch is hostile data: members are defined, never assigned, so `__proto__` is an ordinary
 * member name (as RFC 7396 and 6902 treat every name, and as `JSON.parse` reads it), never the
 * answer's prototype (DECISIONS 102). Nothing nests deeper than MAX_CONTROL_DEPTH (the records'
 * bound): a deeper patch, path or result is refused with the bound named, before any walk could
 * reach the stack's limit; and a patch's copies cannot grow an answer past MAX_PATCH_NODES.
 */
import {
  defineMember,
  depthOf,
  hasOwn as own,
  isJsonObject as isObject,
  MAX_CONTROL_DEPTH,
} from '../../contract/judge/json.js';

export class PatchError extends Error {}

type Json = unknown;

/** The values a patch's copies may add to an answer in all (a list page holds about 10,000). */
export const MAX_PATCH_NODES = 200_000;

function tooDeep(at: string): PatchError {
  return new PatchError(`${at || '""'}: nests deeper than ${MAX_CONTROL_DEPTH} levels (the bound)`);
}

function merged(target: Json, patch: Json): Json {
  if (!isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = isObject(target) ? structuredClone(target) : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else defineMember(out, name, merged(own(out, name) ? out[name] : undefined, value));
  }
  return out;
}

/** RFC 7396: the result of merging `patch` into `target` (neither is changed). */
export function mergePatch(target: Json, patch: Json): Json {
  // Depth-bounded first: the merge below recurses only as deep as the patch.
  if (depthOf(patch, MAX_CONTROL_DEPTH) > MAX_CONTROL_DEPTH) throw tooDeep('');
  return merged(target, patch);
}

/** RFC 6901: a pointer's reference tokens, unescaped. */
function tokens(pointer: unknown, at: string): string[] {
  if (typeof pointer !== 'string' || (pointer !== '' && !pointer.startsWith('/')))
    throw new PatchError(`${at}: a JSON pointer ("" or starting with "/") is required`);
  if (pointer === '') return [];
  const path = pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (path.length > MAX_CONTROL_DEPTH) throw tooDeep(at);
  return path;
}

function jsonEqual(a: Json, b: Json): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}
function canonical(v: Json): Json {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObject(v)) {
    const out = {};
    for (const k of Object.keys(v).sort()) defineMember(out, k, canonical(v[k]));
    return out;
  }
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
    throw new PatchError(`${at}: "${token.slice(0, 100)}" is not an array index`);
  const index = Number(token);
  if (index > array.length || (!forAdd && index === array.length))
    throw new PatchError(`${at}: index ${index} is out of range`);
  return index;
}

function child(node: Json, token: string, at: string): Json {
  if (Array.isArray(node)) return node[arrayIndex(node, token, at, false)];
  if (isObject(node) && own(node, token)) return node[token];
  throw new PatchError(`${at}: no member "${token.slice(0, 100)}"`);
}

function get(doc: Json, path: string[], at: string): Json {
  let node = doc;
  for (const token of path) node = child(node, token, at);
  return node;
}

function add(doc: Json, path: string[], value: Json, at: string): Json {
  // What lands at `path` nests as deep as the path plus the value: held to the bound here.
  if (path.length + depthOf(value, MAX_CONTROL_DEPTH) > MAX_CONTROL_DEPTH) throw tooDeep(at);
  if (path.length === 0) return value;
  const [parent, last] = parentOf(doc, path, at);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, at, true), 0, value);
  else if (isObject(parent)) defineMember(parent, last, value);
  else throw new PatchError(`${at}: the parent is not an object or array`);
  return doc;
}

function remove(doc: Json, path: string[], at: string): Json {
  if (path.length === 0) throw new PatchError(`${at}: cannot remove the whole document`);
  const [parent, last] = parentOf(doc, path, at);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, at, false), 1);
  else if (isObject(parent) && own(parent, last)) delete parent[last];
  else throw new PatchError(`${at}: no member "${last.slice(0, 100)}"`);
  return doc;
}

/** How many values a JSON value holds, counting no further than `max + 1` (iterative). */
function nodesOf(value: Json, max: number): number {
  let count = 0;
  const stack: Json[] = [value];
  while (stack.length > 0 && count <= max) {
    const v = stack.pop();
    count++;
    if (v !== null && typeof v === 'object')
      for (const child of Object.values(v)) stack.push(child as Json);
  }
  return count;
}

/** A copy of the value at `from`, charged to the patch's budget of added values. */
function copied(doc: Json, from: string[], at: string, budget: { left: number }): Json {
  const value = get(doc, from, at);
  budget.left -= nodesOf(value, budget.left);
  if (budget.left < 0)
    throw new PatchError(`${at}: the copies add more than ${MAX_PATCH_NODES} values (the bound)`);
  return structuredClone(value);
}

/** One operation applied to `doc` (changed in place where it can be); the new document. */
function applyOperation(doc: Json, operation: Json, at: string, budget: { left: number }): Json {
  if (!isObject(operation)) throw new PatchError(`${at}: an operation object is required`);
  const path = tokens(operation.path, `${at}/path`);
  const needsValue = ['add', 'replace', 'test'].includes(String(operation.op));
  if (needsValue && !own(operation, 'value')) throw new PatchError(`${at}: value is required`);
  if (needsValue && depthOf(operation.value, MAX_CONTROL_DEPTH) > MAX_CONTROL_DEPTH)
    throw tooDeep(`${at}/value`);
  const value = structuredClone(operation.value);
  switch (operation.op) {
    case 'add':
      return add(doc, path, value, at);
    case 'remove':
      return remove(doc, path, at);
    case 'replace':
      return path.length === 0
        ? add(doc, path, value, at)
        : add(remove(doc, path, at), path, value, at);
    case 'move': {
      const from = tokens(operation.from, `${at}/from`);
      const moved = get(doc, from, at);
      return add(remove(doc, from, at), path, moved, at);
    }
    case 'copy':
      return add(doc, path, copied(doc, tokens(operation.from, `${at}/from`), at, budget), at);
    case 'test':
      if (!jsonEqual(get(doc, path, at), value)) throw new PatchError(`${at}: test failed`);
      return doc;
    default:
      throw new PatchError(`${at}/op: one of add, remove, replace, move, copy, test`);
  }
}

/** RFC 6902: the result of applying `operations` to a copy of `target`. */
export function jsonPatch(target: Json, operations: readonly unknown[]): Json {
  let doc = structuredClone(target);
  const budget = { left: MAX_PATCH_NODES };
  operations.forEach((operation, i) => {
    doc = applyOperation(doc, operation, `/${i}`, budget);
  });
  return doc;
}

/** A stub's patch applied: an array is a JSON Patch, an object a JSON Merge Patch. */
export const applyPatch = (target: Json, patch: Json): Json =>
  Array.isArray(patch) ? jsonPatch(target, patch) : mergePatch(target, patch);
