/**
 * @module checks/filters
 * Every filter parameter of every list returns only matching records. The value to filter by is
 * taken from a record of the list's first page, so the filter must also find something. A filter
 * with no field of its name in the records (e.g. attributes by `productId`) is a relation: it is
 * checked against the list that has both the field and the filter (the attributes returned must be
 * the ones that product's parts carry).
 * Where the source does not say how a filter matches (which `category` level, exact or partial
 * text), a record that matches under no reasonable reading fails, and a filter that finds nothing
 * only warns (the value was taken from a multi-valued field the target may read differently).
 * A filter named by us (`x-source: inferred`) that the target refuses is a warning, and skipped.
 */
import type { Operation, Parameter, Schema } from '../../contract/index.js';
import type { Check } from '../support/context.js';
import { show } from '../support/findings.js';
import type { TargetExchange } from '../support/client.js';
import { firstPage } from '../support/inputs.js';
import { Probe } from '../support/probe.js';
import {
  MATCH_VERBS,
  PAGING,
  collectProperties,
  fieldValues,
  filterParameters,
  filterValueFrom,
  filterTarget,
  idOf,
  identifierOf,
  isRecord,
  leaves,
  listItemSchema,
  listOperations,
  queryParameter,
  recordMatches,
  type Json,
} from '../support/records.js';

/** Records per filtered page: enough to see foreign records slip through. */
const FILTER_SAMPLE = 100;

function pageLimit(op: Operation): string {
  return String(
    Math.min(
      FILTER_SAMPLE,
      Number(queryParameter(op, PAGING.limit)?.schema.maximum ?? FILTER_SAMPLE),
    ),
  );
}

function dataOf(json: Json): Json[] {
  return isRecord(json) && Array.isArray(json.data) ? json.data : [];
}

/** Whether a schema declares a property of this name anywhere below it. */
function declaresDeep(schema: Schema | undefined, name: string, seen = new Set<Schema>()): boolean {
  if (!schema || seen.has(schema)) return false;
  seen.add(schema);
  const props = collectProperties(schema);
  if (name in props) return true;
  const children = [
    ...Object.values(props),
    schema.items as Schema | undefined,
    ...((schema.oneOf as Schema[] | undefined) ?? []),
    ...((schema.anyOf as Schema[] | undefined) ?? []),
  ];
  return children.some((c) => c && typeof c === 'object' && declaresDeep(c, name, seen));
}

/** Values found under a key anywhere inside a value. */
function valuesUnder(value: Json, key: string): Json[] {
  if (Array.isArray(value)) return value.flatMap((v) => valuesUnder(v, key));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === key ? [v, ...valuesUnder(v, key)] : valuesUnder(v, key),
  );
}

async function checkRelation(probe: Probe, op: Operation, param: Parameter): Promise<void> {
  const idKey = identifierOf(listItemSchema(op));
  const related = listOperations(probe.ctx.contract).find(
    (l) =>
      l !== op &&
      queryParameter(l, param.name) &&
      param.name in collectProperties(listItemSchema(l)) &&
      idKey !== undefined &&
      declaresDeep(listItemSchema(l), idKey),
  );
  if (!related || !idKey) {
    probe.skip(
      op,
      `filter ${param.name}`,
      'nothing in the document says which records it matches (no field of that name, no related list carrying it)',
    );
    return;
  }
  const value = (await firstPage(probe, related))
    .map((r) => filterValueFrom(r, param))
    .find((v) => v !== undefined);
  if (value === undefined) return;
  const relatedSource = queryParameter(related, param.name)?.source;
  const relatedEx = await probe.call(related, {
    query: [
      [param.name, value],
      [PAGING.limit, pageLimit(related)],
    ],
    expectStatus: [200],
    requestSource: relatedSource,
  });
  if (probe.refused(relatedEx))
    return probe.skip(
      op,
      `filter ${param.name}`,
      `the target refused ${related.operationId}?${param.name} (inferred name; ${relatedEx.status})`,
    );
  const carried = new Set(valuesUnder(dataOf(relatedEx.json), idKey).map(String));
  const more =
    isRecord(relatedEx.json) &&
    isRecord(relatedEx.json.pagination) &&
    relatedEx.json.pagination.has_more === true;
  const ex = await probe.call(op, {
    query: [
      [param.name, value],
      [PAGING.limit, pageLimit(op)],
    ],
    expectStatus: [200],
    requestSource: param.source,
  });
  if (probe.refused(ex))
    return probe.skip(
      op,
      `filter ${param.name}`,
      `the target refused the inferred parameter name (${ex.status})`,
    );
  if (more) return; // the related records do not fit one page, so the carried set is incomplete
  checkOnlyCarried(probe, op, ex, { param, value, related, idKey, carried });
}

/** A filter by a relation: the value asked for, the related list and the IDs it carries. */
interface Relation {
  param: Parameter;
  value: string;
  related: Operation;
  idKey: string;
  carried: Set<string>;
}

/** The filtered list holds only records the related list carries, and finds some when it carries any. */
function checkOnlyCarried(probe: Probe, op: Operation, ex: TargetExchange, r: Relation): void {
  const { param, value, related, idKey, carried } = r;
  dataOf(ex.json).forEach((record, i) => {
    const id = idOf(op, record);
    if (id !== undefined && !carried.has(id)) {
      probe.add(op, ex, {
        rule: 'filter',
        source: param.source,
        pointer: `/data/${i}/${idKey}`,
        expected: `only ${idKey}s carried by ${related.operationId}?${param.name}=${value} (${carried.size})`,
        actual: show(id),
        message: `filter ${param.name}=${show(value)} returned a record its ${param.name} does not carry`,
      });
    }
  });
  if (carried.size > 0 && dataOf(ex.json).length === 0) {
    probe.add(op, ex, {
      rule: 'filter',
      source: param.source,
      pointer: '/data',
      expected: `the ${carried.size} ${idKey}s carried by ${param.name}=${value}`,
      actual: '[]',
      message: `filter ${param.name}=${show(value)} found nothing`,
    });
  }
}

export const checkFilters: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  for (const op of listOperations(ctx.contract, scope)) {
    const records = await firstPage(probe, op);
    for (const param of filterParameters(op)) {
      const target = filterTarget(param);
      const source = records.find((r) => filterValueFrom(r, param) !== undefined);
      if (source === undefined) {
        if (records.length > 0 && records.every((r) => fieldValues(r, target.field) === undefined))
          await checkRelation(probe, op, param);
        else
          probe.skip(
            op,
            `filter ${param.name}`,
            `no record on the first page has a ${target.field} value to filter by`,
          );
        continue;
      }
      const value = filterValueFrom(source, param)!;
      const ex = await probe.call(op, {
        query: [
          [param.name, value],
          [PAGING.limit, pageLimit(op)],
        ],
        expectStatus: [200],
        requestSource: param.source,
      });
      if (probe.refused(ex)) {
        probe.skip(
          op,
          `filter ${param.name}`,
          `the target refused the inferred parameter name (${ex.status})`,
        );
        continue;
      }
      if (ex.status !== 200) continue;
      const data = dataOf(ex.json);
      const bad = data.findIndex((r) => !recordMatches(r, target, value));
      if (bad >= 0) {
        probe.add(op, ex, {
          rule: 'filter',
          source: param.source,
          pointer: `/data/${bad}`,
          expected: `only records whose ${target.field} ${MATCH_VERBS[target.kind]} ${show(value)}`,
          actual: show(
            isRecord(data[bad])
              ? ((data[bad] as Record<string, Json>)[target.field] ?? leaves(data[bad]).slice(0, 5))
              : data[bad],
          ),
          message: `filter ${param.name}=${show(value)} returned a record that does not match`,
        });
      }
      const total =
        isRecord(ex.json) && isRecord(ex.json.pagination)
          ? Number(ex.json.pagination.total)
          : data.length;
      if (data.length === 0 || total === 0) {
        // A value from a multi-valued field (category levels) may be one the target's reading does not match on.
        const ambiguous = (fieldValues(source, target.field)?.length ?? 0) > 1;
        probe.add(op, ex, {
          rule: 'filter',
          source: ambiguous ? 'inferred' : param.source,
          pointer: '/data',
          expected: `at least the record ${show(idOf(op, source))} the value was taken from`,
          actual: '[]',
          message: `filter ${param.name}=${show(value)} found nothing, though a listed record has it`,
          assumption: ambiguous
            ? `how ${param.name} matches a multi-valued ${target.field} (which level, which part) is not stated; we matched it on any`
            : undefined,
        });
      }
    }
  }
  return probe.result();
};
