/**
 * @module contract/judge/hrefs
 * Every `href` in an answer leads somewhere: no raw `#` (identifiers are percent-encoded); a
 * relative href is relative to the base URL; an absolute one lies under the API's base path (on
 * the public base URL when one is stated); and the path names a GET operation of the document.
 * The suite then follows it on the target, the mock through its own handlers (for a record, the
 * record must exist). The walk is iterative and bounded, so no answer reaches the stack's limit.
 */
import type { Operation } from '../model.js';
import type { Judgement } from './finding.js';
import { isJsonObject } from './json.js';

/** Hrefs collected from one answer at most: a list page of 100 records holds a few hundred. */
export const MAX_HREFS = 5_000;

export interface FoundHref {
  value: string;
  /** JSON pointer of the href in the answer. */
  pointer: string;
}

/** Every string member named `href` in a JSON value (at most MAX_HREFS), with its pointer. */
export function collectHrefs(value: unknown, pointer = ''): FoundHref[] {
  const out: FoundHref[] = [];
  const stack: [unknown, string][] = [[value, pointer]];
  while (stack.length > 0 && out.length < MAX_HREFS) {
    const [v, at] = stack.pop()!;
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}/${i}`]);
    else if (isJsonObject(v)) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i];
        const name = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (k === 'href' && typeof child === 'string') out.push({ value: child, pointer: name });
        else stack.push([child, name]);
      }
    }
  }
  return out;
}

/** The GET operation whose path template matches a raw path below the base URL. */
export function operationForPath(
  ops: readonly Operation[],
  rawPath: string,
): Operation | undefined {
  const segments = rawPath.split('/');
  const candidates = ops.filter(
    (op) => op.method === 'get' && op.path.split('/').length === segments.length,
  );
  const score = (op: Operation) => op.path.split('/').filter((s) => !s.startsWith('{')).length;
  return candidates
    .filter((op) => op.path.split('/').every((s, i) => s.startsWith('{') || s === segments[i]))
    .sort((a, b) => score(b) - score(a))[0];
}

/** The path parameters a raw path gives an operation's template, decoded; undefined when one does not decode. */
export function pathParametersOf(
  op: Operation,
  rawPath: string,
): Record<string, string> | undefined {
  const segments = rawPath.split('/');
  const params: Record<string, string> = {};
  const template = op.path.split('/');
  for (let i = 0; i < template.length; i++) {
    const name = /^\{([^}]+)\}$/.exec(template[i])?.[1];
    if (!name) continue;
    try {
      params[name] = decodeURIComponent(segments[i]);
    } catch {
      return undefined;
    }
  }
  return params;
}

/**
 * Where an absolute href leads on the target: its path and query below the base path, resolved
 * against the target's base URL. Undefined when the href is not under the base path (or, with a
 * public base URL given, not on it).
 */
export function resolveOnTarget(
  href: string,
  targetBase: string,
  publicBase: string | undefined,
): string | undefined {
  const url = new URL(href);
  if (publicBase)
    return href.startsWith(`${publicBase}/`)
      ? `${targetBase}${href.slice(publicBase.length)}`
      : undefined;
  const basePath = new URL(targetBase).pathname;
  if (!url.pathname.startsWith(`${basePath}/`)) return undefined;
  return `${targetBase}${url.pathname.slice(basePath.length)}${url.search}`;
}

/** An href that names an operation: the URL to follow on the target, its path below the base, the operation. */
export interface ResolvedHref extends FoundHref {
  url: string;
  rawPath: string;
  target: Operation;
  /** An absolute href's origin when it is not the target's (and no public base URL was stated). */
  foreignOrigin?: string;
}

/** Judges one href's form and path: a finding, or where it leads. */
export function judgeHref(
  href: FoundHref,
  operations: readonly Operation[],
  base: string,
  publicBase?: string,
): { judgement: Judgement } | ResolvedHref {
  const fail = (rule: string, expected: string, message: string) => ({
    judgement: {
      rule,
      expected,
      message,
      pointer: href.pointer,
      actual: href.value,
      source: 'documented' as const,
    },
  });
  if (href.value.includes('#'))
    return fail(
      'href-encoding',
      'identifiers percent-encoded in hrefs (`#` as %23)',
      `href carries a raw "#"`,
    );
  let url: string;
  let foreignOrigin: string | undefined;
  if (href.value.startsWith('/')) url = `${base}${href.value}`;
  else if (/^https?:\/\//.test(href.value)) {
    let onTarget: string | undefined;
    try {
      onTarget = resolveOnTarget(href.value, base, publicBase);
    } catch {
      onTarget = undefined;
    }
    if (onTarget === undefined)
      return fail(
        'href-off-base',
        publicBase
          ? `an absolute href on CONTRACT_PUBLIC_BASE_URL ${publicBase}`
          : `an absolute href under the API base path ${new URL(base).pathname}`,
        'absolute href points outside the base URL',
      );
    const origin = new URL(href.value).origin;
    if (!publicBase && origin !== new URL(base).origin) foreignOrigin = origin;
    url = onTarget;
  } else
    return fail(
      'href-form',
      'a path starting with / (relative to the base URL) or an absolute URL on it',
      'href is neither',
    );
  let rawPath: string;
  try {
    rawPath = new URL(url).pathname.slice(new URL(base).pathname.length);
  } catch {
    return fail('href-form', 'a URL', 'href is not a URL');
  }
  const target = operationForPath(operations, rawPath);
  if (!target)
    return fail(
      'href-unknown-path',
      'a path of an operation in the document',
      `href path ${rawPath.slice(0, 200)} matches no operation`,
    );
  return { ...href, url, rawPath, target, ...(foreignOrigin ? { foreignOrigin } : {}) };
}
