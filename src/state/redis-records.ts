/**
 * @module state/redis-records
 * The record-edit log shared by a fleet: the edits as a Redis list of JSON under the store's
 * prefix, and a version counter every change increments. An instance reads the version for
 * each turn of the event loop's requests (one GET) and the list only when the version is not the
 * one it serves. While Redis is away the instance keeps serving the edits it last read.
 */
import type { Redis } from 'ioredis';
import { isRecordFamily, type RecordEdit } from '../fixtures/overlay.js';
import { openRedis } from './redis-connection.js';
import { REDIS_STORE_DEFAULTS, type RedisStoreOptions } from './redis.js';
import {
  MAX_RECORD_EDITS,
  RecordLogFullError,
  RecordLogUnavailableError,
  storedEdit,
  type RecordLog,
} from './records.js';

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

export class RedisRecordLog implements RecordLog {
  readonly #keys: { version: string; edits: string; bytes: string };
  #lastVersion = '';
  #turnVersion: Promise<string> | undefined;

  private constructor(
    readonly redis: Redis,
    prefix: string,
  ) {
    this.#keys = {
      version: `${prefix}records:version`,
      edits: `${prefix}records:edits`,
      bytes: `${prefix}records:bytes`,
    };
  }

  static async connect(
    url: string,
    partial: Partial<Omit<RedisStoreOptions, 'instanceId'>> = {},
  ): Promise<RedisRecordLog> {
    const options = {
      ...REDIS_STORE_DEFAULTS,
      ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)),
    } as Omit<RedisStoreOptions, 'instanceId' | 'log'>;
    const redis = await openRedis(url, options);
    // Reconnection is logged by the state store; this connection only needs to not crash the process.
    redis.on('error', () => {});
    return new RedisRecordLog(redis, options.prefix);
  }

  /**
   * The requests of one turn of the event loop share one read, sent once all of them have come
   * (setImmediate): none misses an edit made before it came, and a busy instance sends one GET a
   * turn instead of one a request.
   */
  version(): Promise<string> {
    return (this.#turnVersion ??= new Promise((resolve) =>
      setImmediate(() => {
        this.#turnVersion = undefined;
        this.redis.get(this.#keys.version).then(
          (version) => resolve((this.#lastVersion = version ?? '0')),
          // Redis away: keep serving the edits last read.
          () => resolve(this.#lastVersion),
        );
      }),
    ));
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
      .rpush(this.#keys.edits, text)
      .incrby(this.#keys.bytes, text.length)
      .incr(this.#keys.version)
      .exec();
  }

  clear(): Promise<void> {
    return shared(async () => {
      await this.redis
        .multi()
        .del(this.#keys.edits, this.#keys.bytes)
        .incr(this.#keys.version)
        .exec();
    });
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
