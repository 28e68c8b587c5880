/**
 * @module contract/judge/identity
 * A by-ID answer is the record that was asked for: for each path parameter, some member of the
 * body carries its value (identifiers survive percent-encoding). The suite holds every by-ID
 * answer it gets to it; the mock holds a stub's answer to it for the identifiers of the request.
 */
import type { Operation } from '../model.js';
import type { Judgement } from './finding.js';
import { isJsonObject } from './json.js';

const quoted = (value: string) =>
  JSON.stringify(value.length > 200 ? `${value.slice(0, 200)}...` : value);

/** A finding for each path parameter whose value no member of the body carries. */
export function judgeIdentifiers(
  op: Operation,
  params: Readonly<Record<string, string>>,
  body: unknown,
): Judgement[] {
  if (!isJsonObject(body)) return [];
  const values = Object.values(body);
  const out: Judgement[] = [];
  for (const [name, value] of Object.entries(params))
    if (!values.includes(value))
      out.push({
        rule: 'id-round-trip',
        source: op.source,
        pointer: '',
        expected: `a body naming the requested ${name} ${quoted(value)}`,
        actual: body,
        message: `the body does not carry the requested identifier ${quoted(value)}`,
      });
  return out;
}

/** The words of a name in any case style: `dcp_id` and `dcpId` are both `dcp id`. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .map((w) => w.toLowerCase())
    .filter(Boolean);
}

/**
 * The field of `fields` a path parameter names: the same words (`product_id`: `productId`), else
 * the parameter's words in order (`dcp_id`: `dcpDocumentId`); undefined when none does.
 */
export function fieldNamedBy(param: string, fields: readonly string[]): string | undefined {
  const wanted = nameWords(param);
  const exact = fields.find((f) => nameWords(f).join(' ') === wanted.join(' '));
  if (exact) return exact;
  return fields.find((f) => {
    let k = 0;
    for (const w of nameWords(f)) if (w === wanted[k]) k++;
    return k === wanted.length;
  });
}
