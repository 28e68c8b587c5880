/**
 * @module console/catalogue
 * What the QA console's forms offer, derived from the loaded contract (never a hand-kept copy):
 * each operation's path and query parameters with their types and bounds, the statuses it
 * declares (and which of them announce `Retry-After`), the bounds of every fault action, stub and
 * record family, and the keys by name.
 */
import type { Contract, Operation, Parameter } from '../../contract/index.js';
import { MAX_ARMED_COUNT } from '../../state/faults/faults.js';
import { MAX_STUB_TIMES } from '../../state/stubs/stubs.js';
import { ACTION_BOUNDS } from '../faults/actions.js';
import type { KeyStore } from '../config/keys.js';
import type { RecordFamilyInfo } from '../records/record-schema.js';

/** A parameter as a form field: its name, where it goes, and what it takes. */
export interface FieldSpec {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  type: string;
  itemType?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  /** On `offset`: `page` (a page index multiplied by `limit`) or `item`. */
  offsetUnit?: string;
}

type SchemaLike = {
  type?: string | string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
  items?: SchemaLike;
};

const typeName = (schema: SchemaLike | undefined): string => {
  const t = schema?.type;
  if (Array.isArray(t)) return t.filter((x) => x !== 'null').join('|') || 'string';
  return t ?? 'string';
};

function fieldOf(parameter: Parameter): FieldSpec {
  const schema = parameter.schema as SchemaLike;
  const items = schema.items ?? {};
  const field: FieldSpec = {
    name: parameter.name,
    in: parameter.in as 'path' | 'query',
    required: parameter.required,
    type: typeName(schema),
  };
  if (field.type === 'array') field.itemType = typeName(items);
  const enumValues = schema.enum ?? items.enum;
  if (enumValues) field.enum = enumValues;
  if (typeof schema.minimum === 'number') field.minimum = schema.minimum;
  if (typeof schema.maximum === 'number') field.maximum = schema.maximum;
  if (schema.default !== undefined) field.default = schema.default;
  if (parameter.offsetUnit) field.offsetUnit = parameter.offsetUnit;
  return field;
}

const declaredStatuses = (op: Operation) =>
  [...op.responses.keys()].filter((s) => /^\d{3}$/.test(s));

/** One operation as the console's forms offer it. */
export function operationForm(op: Operation) {
  return {
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: op.path,
    summary: op.summary,
    fields: op.parameters.filter((p) => p.in !== 'header').map(fieldOf),
    statuses: declaredStatuses(op).map(Number),
    retryAfterStatuses: declaredStatuses(op)
      .filter((s) =>
        op.responses.get(s)?.headers.some((h) => h.name.toLowerCase() === 'retry-after'),
      )
      .map(Number),
  };
}

/** The header the document's API-key scheme names (for "copy as curl"). */
function keyHeaderOf(contract: Contract): string | null {
  const schemes = contract.document.components?.securitySchemes ?? {};
  for (const scheme of Object.values(schemes))
    if ('type' in scheme && scheme.type === 'apiKey' && scheme.in === 'header') return scheme.name;
  return null;
}

/** The console's catalogue: operations, bounds, keys and record families of this mock. */
export function catalogue(
  contract: Contract,
  keys: KeyStore,
  families: Iterable<RecordFamilyInfo>,
) {
  return {
    release: contract.release,
    operations: contract.operations.map(operationForm),
    bounds: {
      count: { minimum: 1, maximum: MAX_ARMED_COUNT },
      times: { minimum: 1, maximum: MAX_STUB_TIMES },
      // Each integer fault action's bounds, from the table of actions (faults/actions.ts).
      ...ACTION_BOUNDS,
    },
    keys: keys.records.map((k) => k.name),
    keyHeader: keyHeaderOf(contract),
    families: [...families].map((f) => ({
      family: f.family,
      idField: f.idField,
      operationId: f.byId.operationId,
    })),
  };
}
