/**
 * @module state/records/redis
 * The record-edit log shared by a fleet: the edits as a Redis list of JSON under the store's
 * prefix, and a version counter every change increments. The state store's turn script reads the
 * version with the turn's admits (no command of its own per request); the instance reads the list
 * only when the version is not the one it serves. While Redis is away it keeps serving the edits
 * it last read.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedisLink } from '../shared/fail-over.js';
import { recordKeys } from '../shared/keys.js';
import { isRecordFamily, type RecordEdit } from './overlay.js';
import {
  MAX_RECORD_EDITS,
  RecordLogFullError,
  RecordLogUnavailableError,
  storedEdit,
  type RecordLog,
  type RecordLogPart,
} from './records.js';
import type { RecordsStore } from './store.js';

/** An edit read back from Redis, or undefined when the entry is not one (never trusted blindly). */
function editOf(text: string): RecordEdit | undefined {
  try {
    const edit = JSON.parse(text) as Partial<RecordEdit>;
    if (typeof edit.id !== 'string' || typeof edit.family !== 'string') return undefined;
    if (!isRecordFamily(edit.family)) return undefined;
    if (edit.op === 'remove') return { op: 'remove', family: edit.family, id: edit.id };
    const record = (edit as { record?: unknown }).record;
    if (
      edit.op === 'put' &&
      record !== null &&
      typeof record === 'object' &&
      !Array.isArray(record)
    )
      return {
        op: 'put',
        family: edit.family,
        id: edit.id,
        record: record as Record<string, unknown>,
      };
  } catch {
    // not JSON: skipped
  }
  return undefined;
}

/** Runs a Redis step; a failure of Redis itself becomes a RecordLogUnavailableError (never its text: it may carry the URL). */
async function shared<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof RecordLogFullError) throw error;
    throw new RecordLogUnavailableError(
      'the shared state (--state) is unreachable: the record edit was not made; try again',
    );
  }
}

/**
 * The version as the state store's turns read it (shared/turn.ts): each turn's script reads it
 * after the requests of that turn came, so a request's own turn, or any later one, tells it every
 * edit made before it came. Undefined when no turn has told since this log's own last change
 * (replies come in order on the one connection) or since Redis went away.
 */
export interface TurnVersions {
  latest(): string | undefined;
  forget(): void;
}

/** The log on the state store's connection (RedisRecords.log), which the record control closes. */
export class RedisRecordLog implements RecordLog {
  readonly shared = true;
  readonly #keys: ReturnType<typeof recordKeys>;
  #lastVersion = '0';

  constructor(
    readonly redis: Redis,
    prefix: string,
    private readonly turns: TurnVersions,
  ) {
    this.#keys = recordKeys(prefix);
  }

  /** What the last turn read, or one GET when no turn has told yet; Redis away: the edits last read. */
  version(): string | Promise<string> {
    const seen = this.turns.latest();
    if (seen !== undefined) return (this.#lastVersion = seen);
    return this.redis.get(this.#keys.version).then(
      (version) => (this.#lastVersion = version ?? '0'),
      () => this.#lastVersion,
    );
  }

  read(): Promise<{ version: string; edits: RecordEdit[] }> {
    return shared(() => this.#read());
  }

  async #read(): Promise<{ version: string; edits: RecordEdit[] }> {
    const result = await this.redis
      .multi()
      .get(this.#keys.version)
      .lrange(this.#keys.edits, 0, MAX_RECORD_EDITS - 1)
      .exec();
    const version = (result?.[0]?.[1] as string | null) ?? '0';
    const texts = (result?.[1]?.[1] as string[] | null) ?? [];
    const edits = texts.map(editOf).filter((e): e is RecordEdit => e !== undefined);
    this.#lastVersion = version;
    return { version, edits };
  }

  readFrom(epoch: string | undefined, start: number): Promise<RecordLogPart> {
    return shared(() => this.#readFrom(epoch, start));
  }

  /**
   * One atomic read of the version, the epoch and the edits from `start`; read again from 0 when
   * the epoch is not the one the reader has (the list was cleared or lost since).
   */
  async #readFrom(epoch: string | undefined, start: number): Promise<RecordLogPart> {
    const result = await this.redis
      .multi()
      .get(this.#keys.version)
      .get(this.#keys.epoch)
      .lrange(this.#keys.edits, start, start + MAX_RECORD_EDITS - 1)
      .exec();
    const version = (result?.[0]?.[1] as string | null) ?? '0';
    const now = (result?.[1]?.[1] as string | null) ?? '';
    if (start > 0 && now !== epoch) return this.#readFrom(now, 0);
    const texts = (result?.[2]?.[1] as string[] | null) ?? [];
    this.#lastVersion = version;
    // An entry that is not an edit keeps its place (the reader counts it as read), as undefined.
    return { version, epoch: now, start, edits: texts.map(editOf) };
  }

  append(edit: RecordEdit): Promise<void> {
    return shared(() => this.#append(edit));
  }

  async #append(edit: RecordEdit): Promise<void> {
    const [count, bytes] = await Promise.all([
      this.redis.llen(this.#keys.edits),
      this.redis.get(this.#keys.bytes),
    ]);
    const text = storedEdit(edit, count, Number(bytes ?? 0));
    await this.redis
      .multi()
      .set(this.#keys.epoch, randomUUID(), 'NX')
      .rpush(this.#keys.edits, text)
      .incrby(this.#keys.bytes, text.length)
      .incr(this.#keys.version)
      .exec();
    this.turns.forget();
  }

  clear(): Promise<void> {
    return shared(async () => {
      await this.redis
        .multi()
        .del(this.#keys.edits, this.#keys.bytes)
        .set(this.#keys.epoch, randomUUID())
        .incr(this.#keys.version)
        .exec();
      this.turns.forget();
    });
  }

  /** The store closes the connection. */
  async close(): Promise<void> {}
}

/** The record-edit log on the shared store's connection, its version read by each turn. */
export class RedisRecords implements RecordsStore {
  constructor(readonly link: RedisLink) {}

  log(): RecordLog {
    const { redis, options, seen } = this.link;
    return new RedisRecordLog(redis, options.prefix, {
      latest: () => (this.link.up ? seen.records : undefined),
      forget: () => {
        seen.records = undefined;
        seen.recordsForgotten = seen.turnsSent;
      },
    });
  }

  noteSpoiled(n: number, what: string): void {
    this.link.noteRepairs(n, what);
  }
}
