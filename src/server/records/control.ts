/**
 * @module records/control
 * The record edits of a running mock: put, remove, list and clear through the store's log, and a
 * pipeline step that brings each environment up to the log's version before a request is
 * answered (with the in-memory log a number compared; with a shared one, the version the
 * request's turn of the state store read, and the log itself only when another instance changed
 * it). The environments built at start are never changed: the edits make a new environment value
 * (apply.ts), which `served` hands out and the step puts on the request's context.
 */
import type { RecordPutResult } from '../../api/types.js';
import type { Context, Next } from 'hono';
import type { Contract, Validators } from '../../contract/index.js';
import type { AppEnv } from '../env.js';
import type { RecordEdit, RecordEditEntry, RecordFamily } from '../../state/records/overlay.js';
import type { RecordLog } from '../../state/records/records.js';
import type { RecordsStore } from '../../state/records/store.js';
import type { Step } from '../pipeline/chain.js';
import type { ApiContext } from '../context.js';
import { applyRecordEdits, type Served } from './apply.js';
import { trialProblems } from './trial.js';
import {
  checkRecord,
  recordFamilies,
  type RecordFamilyInfo,
  type RecordProblem,
} from './record-schema.js';

/** Why an edit was refused: the status an admin answer carries and the problems, each named. */
export class RecordEditError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
    readonly problems: RecordProblem[] = [],
  ) {
    super(message);
    this.name = 'RecordEditError';
  }
}

/** What a put did (the public `RecordPutResult`, api/types.ts). */
export type PutResult = RecordPutResult;

export class RecordControl {
  #families: ReadonlyMap<RecordFamily, RecordFamilyInfo> | undefined;
  #version: string | undefined;
  /** The log's epoch and how many of its entries are applied: the next read starts after them. */
  #epoch: string | undefined;
  #read = 0;
  /** Each environment as served with the edits, by the environment built at start (absent: no edits read yet). */
  readonly #served = new Map<ApiContext, Served>();

  constructor(
    readonly parts: {
      contract: Contract;
      validators: Validators;
      apis: readonly ApiContext[];
      log: RecordLog;
      /** Counts edits of a shared log that its check refuses when read back (the store's `repaired`). */
      spoiled?: (n: number, what: string) => void;
    },
  ) {}

  /**
   * The editable families, found on first use: finding each family's identifier builds seed
   * records, a quarter of createMockApp() for a mock no test edits.
   */
  get families(): ReadonlyMap<RecordFamily, RecordFamilyInfo> {
    return (this.#families ??= recordFamilies(this.parts.contract, this.parts.apis[0].seed));
  }

  /** The control over the store's log: in this process, or shared through `--state`. */
  static create(
    store: RecordsStore,
    parts: Omit<RecordControl['parts'], 'log' | 'spoiled'>,
  ): RecordControl {
    return new RecordControl({
      ...parts,
      log: store.log(),
      spoiled: (n, what) => store.noteSpoiled(n, what),
    });
  }

  /** The family's description, or a 404 naming the families there are. */
  family(name: string): RecordFamilyInfo {
    const info = this.families.get(name as RecordFamily);
    if (!info)
      throw new RecordEditError(
        404,
        `no record family "${name.slice(0, 100)}" (families: ${[...this.families.keys()].join(', ')})`,
      );
    return info;
  }

  /** The environment as served now: `start` (one built at start) with the edits read so far over it. */
  served(start: ApiContext): ApiContext {
    return this.#served.get(start)?.api ?? start;
  }

  /** Brings every environment up to the log (cheap when nothing changed). */
  sync(): void | Promise<void> {
    const version = this.parts.log.version();
    if (typeof version === 'string') return version === this.#version ? undefined : this.#reload();
    return version.then((v) => (v === this.#version ? undefined : this.#reload()));
  }

  /** Applies what the log gained since the last read (all of it when it was cleared since). */
  async #reload(): Promise<void> {
    let part: Awaited<ReturnType<RecordLog['readFrom']>>;
    try {
      part = await this.parts.log.readFrom(this.#epoch, this.#read);
    } catch {
      return; // a shared log away: keep serving the edits last read
    }
    if (part.version === this.#version) return;
    const fresh = part.start === 0;
    const edits = this.#readBack(part.edits);
    for (const api of this.parts.apis)
      this.#served.set(api, applyRecordEdits(api, this.#served.get(api), edits, { fresh }));
    this.#epoch = part.epoch;
    this.#read = part.start + part.edits.length;
    this.#version = part.version;
  }

  /**
   * The edits of a shared log that a put would take (Redis is input too): the same record check
   * as `PUT /__mock/records`; one it refuses is skipped and counted, never served.
   */
  #readBack(edits: readonly (RecordEdit | undefined)[]): RecordEdit[] {
    if (!this.parts.log.shared) return edits as RecordEdit[];
    const baseUrl = this.parts.apis[0].seed.options.baseUrl;
    const kept = edits.filter((edit): edit is RecordEdit => {
      if (edit === undefined) return false;
      if (edit.op === 'remove') return true;
      const info = this.families.get(edit.family);
      if (!info) return false;
      const checked = checkRecord(info, this.parts.validators, edit.record, baseUrl);
      return checked.ok && checked.id === edit.id;
    });
    if (kept.length < edits.length)
      this.parts.spoiled?.(
        edits.length - kept.length,
        'a record edit the record check refuses (skipped)',
      );
    return kept;
  }

  async put(familyName: string, record: unknown, id?: string): Promise<PutResult> {
    const info = this.family(familyName);
    await this.sync();
    const api = this.served(this.parts.apis[0]);
    const checked = checkRecord(info, this.parts.validators, record, api.seed.options.baseUrl);
    if (!checked.ok)
      throw new RecordEditError(400, `${info.family} record refused`, checked.problems);
    if (id !== undefined && id !== checked.id)
      throw new RecordEditError(400, `${info.family} record refused`, [
        {
          pointer: `/${info.idField}`,
          rule: `equals the identifier in the path ("${id.slice(0, 100)}")`,
          message: `the record's ${info.idField} is not the one the path names`,
          source: 'documented',
        },
      ]);
    if (info.family === 'documents') this.#checkDcpId(api, checked.record, checked.id);
    // Served on trial by every operation that will serve it: refused there, never served broken.
    const served = await trialProblems(
      api,
      this.parts.contract,
      this.parts.validators,
      info,
      checked.id,
      checked.record,
    );
    const refused = served.filter((p) => p.source !== 'inferred');
    if (refused.length > 0)
      throw new RecordEditError(400, `${info.family} record refused`, refused);
    const created = api.dataset[info.family].indexOf(checked.id) === undefined;
    await this.parts.log.append({
      op: 'put',
      family: info.family,
      id: checked.id,
      record: checked.record,
    });
    await this.sync();
    return { family: info.family, id: checked.id, created, warnings: checked.warnings };
  }

  /** A document's second identifier names one document: another's DCP id is refused. */
  #checkDcpId(api: ApiContext, record: Record<string, unknown>, id: string): void {
    const dcp = record.dcpDocumentId;
    if (typeof dcp !== 'string') return;
    const holder = api.dataset.documentByDcpId(dcp);
    if (holder !== undefined && api.dataset.documents.id(holder) !== id)
      throw new RecordEditError(400, 'documents record refused', [
        {
          pointer: '/dcpDocumentId',
          rule: 'unique among documents',
          message: `dcpDocumentId "${dcp.slice(0, 100)}" already names document ${api.dataset.documents.id(holder)}`,
          source: 'inferred',
        },
      ]);
  }

  async remove(familyName: string, id: string): Promise<{ family: RecordFamily; id: string }> {
    const info = this.family(familyName);
    await this.sync();
    if (this.served(this.parts.apis[0]).dataset[info.family].indexOf(id) === undefined)
      throw new RecordEditError(404, `no ${info.family} record "${id.slice(0, 100)}"`);
    await this.parts.log.append({ op: 'remove', family: info.family, id });
    await this.sync();
    return { family: info.family, id };
  }

  /** The edits in order, each as which record it changed (bounded: the records are in the API). */
  async edits(): Promise<RecordEditEntry[]> {
    return (await this.parts.log.read()).edits.map(({ op, family, id }) => ({ op, family, id }));
  }

  close(): Promise<void> {
    return this.parts.log.close();
  }

  /** Back to the seed's dataset. */
  async clear(): Promise<void> {
    await this.parts.log.clear();
    await this.sync();
  }
}

/**
 * The pipeline step right before the handler: the request is answered from its environment as
 * served with every edit made so far, on any instance. Nothing waits between this step and the
 * handler, so no answer built from an environment an edit has since replaced fills the caches.
 */
export function recordSync(control: RecordControl): Step {
  function serve(c: Context<AppEnv>, next: Next) {
    const api = c.get('api');
    const served = control.served(api);
    if (served !== api) c.set('api', served);
    return next();
  }
  return function syncRecords(c, next) {
    const pending = control.sync();
    return pending ? pending.then(() => serve(c, next)) : serve(c, next);
  };
}
