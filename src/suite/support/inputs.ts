/**
 * @module support/inputs
 * Request inputs, derived from what the target itself returns (an identifier from a list's first
 * page, a request body filled from the schema with values seen in records), plus the few generated
 * strings, seeded so the same seed sends the same requests.
 */
import type { Operation, Schema } from '../../contract/index.js';
import { seededRandom } from '../../dataset/mulberry32.js';
import type { CallSpec, Probe } from './probe.js';
import {
  fieldForPathParameter,
  isRecord,
  listItemSchema,
  listOperations,
  pathParameters,
  sourceListOf,
  type Json,
} from './records.js';

const HEX = 16;
const TOKEN_LENGTH = 8;

/** `count` distinct strings `<prefix>-<hex>-<n>`, the same for the same seed. */
export function seededTokens(seed: number, prefix: string, count: number): string[] {
  const random = seededRandom(seed);
  const tag = Math.floor(random() * HEX ** TOKEN_LENGTH)
    .toString(HEX)
    .padStart(TOKEN_LENGTH, '0');
  return Array.from({ length: count }, (_, n) => `${prefix}-${tag}-${String(n).padStart(4, '0')}`);
}

/** The records of a list's first page (default paging), fetched once per run. */
export async function firstPage(probe: Probe, list: Operation): Promise<Json[]> {
  const ex = await probe.cached(list);
  const data = isRecord(ex.json) ? ex.json.data : undefined;
  return Array.isArray(data) ? (data as Json[]) : [];
}

/** Path parameters naming a real record for a by-ID operation, from its source list. */
export async function realParams(
  probe: Probe,
  op: Operation,
): Promise<{ params: Record<string, string>; field: string } | undefined> {
  const [param] = pathParameters(op);
  const list = sourceListOf(probe.ctx.contract, op);
  if (!param || !list) return undefined;
  const field = fieldForPathParameter(param.name, listItemSchema(list));
  if (!field) return undefined;
  for (const record of await firstPage(probe, list)) {
    const value = isRecord(record) ? record[field] : undefined;
    if (typeof value === 'string' && value !== '')
      return { params: { [param.name]: value }, field };
  }
  return undefined;
}

/** Path parameters that name no record (seeded, so reruns ask for the same identifier). */
export function unknownParams(probe: Probe, op: Operation): Record<string, string> {
  const [token] = seededTokens(probe.ctx.options.seed, 'contract-unknown', 1);
  return Object.fromEntries(pathParameters(op).map((p) => [p.name, token]));
}

/** A value for a named string field: the first one seen in any list's first page, else a seeded token. */
async function valueSeenFor(probe: Probe, name: string): Promise<string> {
  for (const list of listOperations(probe.ctx.contract)) {
    for (const record of await firstPage(probe, list)) {
      const value = isRecord(record) ? record[name] : undefined;
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return seededTokens(probe.ctx.options.seed, name, 1)[0];
}

/**
 * A minimal valid body for the schema: required properties only, strings taken from records,
 * arrays at their minimum size (empty when allowed), numbers at their default or minimum.
 */
export async function minimalBody(probe: Probe, schema: Schema, name = 'value'): Promise<Json> {
  const type: unknown = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  switch (type) {
    case 'object': {
      const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
      const out: Record<string, Json> = {};
      for (const key of (schema.required as string[] | undefined) ?? [])
        out[key] = await minimalBody(probe, props[key] ?? {}, key);
      return out;
    }
    case 'array': {
      const count = Number(schema.minItems ?? 0);
      const items = (schema.items as Schema | undefined) ?? {};
      if (count === 0) return [];
      if (items.type === 'string') return seededTokens(probe.ctx.options.seed, name, count);
      return Promise.all(Array.from({ length: count }, () => minimalBody(probe, items, name)));
    }
    case 'integer':
    case 'number':
      return Number(schema.minimum ?? 0);
    case 'boolean':
      return false;
    default:
      return valueSeenFor(probe, name);
  }
}

/** A request that should succeed: real identifiers, a minimal valid body. Undefined when none can be built. */
export async function successRequest(probe: Probe, op: Operation): Promise<CallSpec | undefined> {
  const spec: CallSpec = {};
  if (pathParameters(op).length > 0) {
    const real = await realParams(probe, op);
    if (!real) return undefined;
    spec.params = real.params;
  }
  if (op.requestBody) spec.body = await minimalBody(probe, op.requestBody.schema);
  return spec;
}
