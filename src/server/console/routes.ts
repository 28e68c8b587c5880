/**
 * @module console/routes
 * The admin endpoints the QA console needs beyond the ones every test uses, mounted on the
 * `/__mock` router behind its token: the catalogue its forms are filled from
 * (`GET /console/catalogue`), the journal as a long poll (`GET /requests/poll`), each key's limits
 * (`GET /limits`), the dataset's answer to a journal row (`POST /console/answer`), a record as the
 * API serves it (`GET /console/records/{family}/{id}`), a record's check without storing it
 * (`POST /console/records/{family}/check`) and the CSP reports (`GET /console/csp-reports`).
 */
import type { Hono } from 'hono';
import type { Contract, Validators } from '../../contract/index.js';
import type { AdjustableClock } from '../../state/clock/clock.js';
import type { Tier } from '../../state/limits/rate-limiter.js';
import type { Stores } from '../../state/stores.js';
import type { BodyOf } from '../admin/control-body.js';
import { apiError, badRequest } from '../errors.js';
import type { KeyStore } from '../config/keys.js';
import { readMatchOnly, type ArmContext } from '../faults/arm-request.js';
import { checkRecord, type RecordFamilyInfo } from '../records/record-schema.js';
import type { RecordControl } from '../records/control.js';
import { refusal } from '../records/routes.js';
import type { SampleAnswer } from '../stubs/sample-answer.js';
import { catalogue } from './catalogue.js';
import type { CspReports } from './csp-reports.js';
import { recordVerdict } from './dry-run.js';
import { journalPoll, type Wait } from './journal-poll.js';
import { limitsView } from './limits-view.js';

export interface ConsoleParts {
  contract: Contract;
  keys: KeyStore;
  clock: AdjustableClock;
  validators: Validators;
  store: Stores;
  records: RecordControl;
  tiers: ReadonlyMap<string, Tier>;
  reports: CspReports;
  sampleAnswer?: SampleAnswer;
  keyNameOf: ArmContext['keyNameOf'];
  /** How a held poll waits (a test may pass its own). */
  wait?: Wait;
}

export function consoleRoutes(admin: Hono, parts: ConsoleParts, bodyOf: BodyOf): void {
  const { store, records } = parts;
  admin.get('/console/catalogue', (c) =>
    c.json(catalogue(parts.contract, parts.keys, records.families.values())),
  );
  admin.get('/requests/poll', journalPoll(store.journal, parts.wait));
  admin.get('/limits', async (c) =>
    c.json(
      limitsView(parts.keys.records, parts.tiers, await store.limits.usage(), parts.clock.now()),
    ),
  );
  admin.get('/console/csp-reports', (c) => c.json(parts.reports.read()));

  const sample = parts.sampleAnswer;
  // The dataset's answer to the request a match describes: what "Stub this" opens.
  admin.post('/console/answer', async (c) => {
    if (!sample) throw apiError(501, 'answers are not available here');
    const body = await bodyOf(c);
    const match = readMatchOnly(body.match, {
      contract: parts.contract,
      validators: parts.validators,
      keyNameOf: parts.keyNameOf,
    });
    if (Array.isArray(match)) throw badRequest(match);
    if (match.operationId === undefined)
      throw badRequest([
        { in: 'body', name: '/match/operationId', rule: 'an operationId', message: 'required' },
      ]);
    await records.sync();
    const answer = await sample(parts.contract.operation(match.operationId), match);
    if (typeof answer === 'string') throw apiError(400, answer);
    return c.json(answer);
  });
  admin.get('/console/records/:family/:id', async (c) => {
    if (!sample) throw apiError(501, 'records are not available here');
    try {
      const info = records.family(c.req.param('family'));
      const param = info.byId.parameters.find((p) => p.in === 'path');
      await records.sync();
      const answer = await sample(info.byId, {
        operationId: info.byId.operationId,
        params: param ? { [param.name]: c.req.param('id') } : {},
      });
      if (typeof answer === 'string') throw apiError(400, answer);
      if (answer.status !== 200)
        throw apiError(404, `no ${info.family} record "${c.req.param('id').slice(0, 100)}"`);
      const item = await listItemOf(sample, info, c.req.param('id'));
      // The list may carry members the by-ID answer leaves out (a product's `additionalDetails`):
      // a record is both, so the editor opens their union and a put of it passes the list's check.
      const record = item ? { ...(answer.body as object), ...item } : answer.body;
      return c.json({ family: info.family, idField: info.idField, record });
    } catch (error) {
      return refusal(error);
    }
  });
  admin.post('/console/records/:family/check', async (c) => {
    if (!parts.validators) throw apiError(501, 'records are not available here');
    try {
      const info = records.family(c.req.param('family'));
      const baseUrl = records.parts.apis[0].seed.options.baseUrl;
      return c.json(recordVerdict(checkRecord(info, parts.validators, await bodyOf(c), baseUrl)));
    } catch (error) {
      return refusal(error);
    }
  });
}

/** The family's list item for one identifier, where the list takes that identifier as a filter. */
async function listItemOf(
  sample: SampleAnswer,
  info: RecordFamilyInfo,
  id: string,
): Promise<object | undefined> {
  if (!info.list.parameters.some((p) => p.in === 'query' && p.name === info.idField)) return;
  const answer = await sample(info.list, {
    operationId: info.list.operationId,
    query: { [info.idField]: id },
  });
  if (typeof answer === 'string' || answer.status !== 200) return;
  const data = (answer.body as { data?: unknown }).data;
  const first: unknown = Array.isArray(data) ? data[0] : undefined;
  return first !== null && typeof first === 'object' ? first : undefined;
}
