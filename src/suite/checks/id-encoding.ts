/**
 * @module checks/id-encoding
 * Identifiers that need percent-encoding (orderable identifiers with `#`, tool titles with spaces)
 * round-trip: GET on the encoded identifier (`#` as `%23`) answers 200 with the very record.
 */
import type { Check } from '../support/context.js';
import { show } from '../support/findings.js';
import { Probe } from '../support/probe.js';
import {
  PAGING,
  byIdOperations,
  fieldForPathParameter,
  isRecord,
  listItemSchema,
  offsetOfPage,
  pathParameters,
  queryParameter,
  sourceListOf,
} from '../support/records.js';

/** Characters `encodeURIComponent` leaves alone; an identifier with anything else needs encoding. */
const UNRESERVED = /^[A-Za-z0-9\-_.!~*'()]*$/;
/** Pages scanned for such an identifier before giving up. */
const SCAN_PAGES = 3;
const SCAN_LIMIT = 100;

export const checkIdEncoding: Check = async (ctx, scope) => {
  const probe = new Probe(ctx);
  for (const op of byIdOperations(ctx.contract, scope).filter((o) => o.method === 'get')) {
    const [param] = pathParameters(op);
    const list = sourceListOf(ctx.contract, op);
    const field = list && fieldForPathParameter(param.name, listItemSchema(list));
    if (!list || !field) continue;
    const limit = String(
      Math.min(
        SCAN_LIMIT,
        Number(queryParameter(list, PAGING.limit)?.schema.maximum ?? SCAN_LIMIT),
      ),
    );
    let id: string | undefined;
    for (let page = 0; page < SCAN_PAGES && id === undefined; page++) {
      const ex = await probe.cached(list, {
        query: [
          [PAGING.limit, limit],
          [PAGING.page, String(offsetOfPage(list, page, Number(limit)))],
        ],
      });
      const data = isRecord(ex.json) && Array.isArray(ex.json.data) ? ex.json.data : [];
      id = data
        .map((r) => (isRecord(r) ? r[field] : undefined))
        .find((v): v is string => typeof v === 'string' && !UNRESERVED.test(v));
      if (data.length === 0) break;
    }
    if (id === undefined) continue; // nothing in this family needs encoding
    const ex = await probe.call(op, {
      params: { [param.name]: id },
      expectStatus: [200],
      statusRule: 'id-encoding',
      statusSource: 'documented',
    });
    if (ex.status === 200 && !(isRecord(ex.json) && ex.json[field] === id)) {
      probe.add(op, ex, {
        rule: 'id-encoding',
        pointer: `/${field}`,
        expected: show(id),
        actual: show(isRecord(ex.json) ? ex.json[field] : ex.json),
        message: `the percent-encoded identifier did not round-trip`,
      });
    }
  }
  return probe.result();
};
