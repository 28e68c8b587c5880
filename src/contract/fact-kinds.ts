/**
 * @module fact-kinds
 * Which kind of fact (`x-source`: documented, reference, inferred) each operation, parameter,
 * request-body field and record field of the contract is, read from the loaded document, and the
 * one table users read it in (`docs/kinds-of-fact.md`, the `/docs` page). A mark applies to
 * everything below it until a child says otherwise, as the document's introduction states.
 */
import { markOf } from './marks.js';
import { SOURCES, type Contract, type Operation, type Schema, type Source } from './model.js';

/** One named thing of an operation and its kind. */
export interface Fact {
  /** `?name` for a query parameter, `{name}` for a path parameter, `body.name` for a request-body field, `name` for a record field. */
  label: string;
  source: Source;
}

export interface OperationFacts {
  method: string;
  path: string;
  operationId: string;
  /** The operation's own kind (that it exists, its statuses). */
  source: Source;
  facts: Fact[];
}

/** Every alternative of a schema that may be one of several shapes, or the schema itself. */
function alternatives(schema: Schema): Schema[] {
  const branches = [
    ...((schema.oneOf as Schema[] | undefined) ?? []),
    ...((schema.anyOf as Schema[] | undefined) ?? []),
    ...((schema.allOf as Schema[] | undefined) ?? []),
  ];
  return branches.length > 0
    ? branches.flatMap(alternatives).concat(schema.properties ? [schema] : [])
    : [schema];
}

/** Top-level properties of an object schema (merged over its alternatives), each with its kind. */
function fieldsOf(schema: Schema | undefined, inherited: Source, prefix: string): Fact[] {
  if (!schema) return [];
  const own = markOf(schema, inherited);
  const seen = new Map<string, Source>();
  for (const branch of alternatives(schema)) {
    const branchMark = markOf(branch, own);
    for (const [name, property] of Object.entries(
      (branch.properties as Record<string, Schema> | undefined) ?? {},
    )) {
      if (!seen.has(name)) seen.set(name, markOf(property, branchMark));
    }
  }
  return [...seen].map(([name, source]) => ({ label: `${prefix}${name}`, source }));
}

/** The record an answer carries: the items of a list's `data`, else the body itself. */
function recordSchema(body: Schema | undefined): Schema | undefined {
  const data = (body?.properties as Record<string, Schema> | undefined)?.data;
  if (data?.type === 'array' && data.items) return data.items as Schema;
  return body;
}

/** The kinds of fact of one operation: itself, its parameters, its request body's fields, its success record's fields. */
export function operationFacts(op: Operation): OperationFacts {
  const facts: Fact[] = op.parameters
    .filter((p) => p.in !== 'header')
    .map((p) => ({ label: p.in === 'path' ? `{${p.name}}` : `?${p.name}`, source: p.source }));
  if (op.requestBody) facts.push(...fieldsOf(op.requestBody.schema, op.source, 'body.'));
  const success = [...op.responses.values()].find((r) => r.status.startsWith('2') && r.jsonSchema);
  if (success?.jsonSchema) {
    const body = success.jsonSchema;
    const record = recordSchema(body);
    facts.push(...fieldsOf(record, markOf(body, success.source), ''));
  }
  return {
    method: op.method.toUpperCase(),
    path: op.path,
    operationId: op.operationId,
    source: op.source,
    facts,
  };
}

/** Counts per kind, over operations and everything they name. */
export function countKinds(all: readonly OperationFacts[]): Record<Source, number> {
  const counts = Object.fromEntries(SOURCES.map((s) => [s, 0])) as Record<Source, number>;
  for (const op of all) {
    counts[op.source]++;
    for (const fact of op.facts) counts[fact.source]++;
  }
  return counts;
}

const COLUMN_TITLES: Record<Source, string> = {
  documented: 'from the source (documented)',
  reference: "from the vendor's reference",
  inferred: 'our choice (inferred, see DECISIONS.md)',
};

function cell(facts: readonly Fact[], source: Source): string {
  const names = facts.filter((f) => f.source === source).map((f) => `\`${f.label}\``);
  return names.length > 0 ? names.join(', ') : '—';
}

/** The Markdown table: one row per operation, one column per kind of fact. */
export function renderKindsTable(contract: Pick<Contract, 'operations'>): string {
  const all = contract.operations.map(operationFacts);
  const counts = countKinds(all);
  const lines = [
    `Every operation, parameter (\`?query\`, \`{path}\`), request-body field (\`body.\`) and top-level record field of the`,
    `contract, by the kind of fact it rests on (\`x-source\` in \`spec/openapi.yaml\`). Totals: ${SOURCES.map((s) => `${counts[s]} ${s}`).join(', ')}.`,
    `The suite fails on what the source or the reference states and only warns on our choices.`,
    '',
    `| operation | the operation | ${SOURCES.map((s) => COLUMN_TITLES[s]).join(' | ')} |`,
    `|---|---|${SOURCES.map(() => '---').join('|')}|`,
    ...all.map(
      (op) =>
        `| \`${op.method} ${op.path}\` | ${op.source} | ${SOURCES.map((s) => cell(op.facts, s)).join(' | ')} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
