/**
 * @module state/stubs/redis
 * The stubs shared by a fleet in one Redis (scripts.ts): the newest of the request's operation
 * that matches is chosen here with the one matcher among that operation's stubs as last read
 * (read again only when the stubs version moved), one of its `remaining` taken in Redis
 * atomically. Redis away: this instance's own stubs answer, and adding is refused
 * (StoreUnavailableError).
 */
import { parsed, StoreUnavailableError, type RedisLink } from '../shared/fail-over.js';
import { matches, type MatchFacts } from './match.js';
import type { MemoryStubs } from './memory.js';
import { ADD_STUB, REMOVE_STUBS, TAKE_STUB } from './scripts.js';
import type { StubsStore } from './store.js';
import { MAX_STUBS, StubLimitError, type Stub } from './stubs.js';

interface StubScripts {
  addStub(...args: (string | number)[]): Promise<number>;
  removeStubs(...args: string[]): Promise<number>;
  takeStub(...args: string[]): Promise<[number, number, number]>;
}

/** What an untimed stub has left in Redis (the take script counts down; nobody sends this many). */
const UNTIMED = 2 ** 50;

/** Most stub verdicts remembered by id (a verdict is dropped when its entry's text changes). */
const MAX_STUB_VERDICTS = 2 * MAX_STUBS;

/** Too many kept: the caller's mistake, not an outage. */
const refused = (error: unknown) => error instanceof StubLimitError;

export class RedisStubs implements StubsStore {
  readonly #link: RedisLink;
  readonly #redis: StubScripts;
  readonly #local: MemoryStubs;
  /** Each operation's stubs, oldest first, as read at a stubs version (scripts.ts). */
  readonly #byOperation = new Map<string, { version: string; stubs: Stub[] }>();
  /** Each stub read, by id: the text read and its verdict (a stub is judged once, not per request). */
  readonly #verdicts = new Map<string, { raw: string; stub: Stub | undefined }>();

  constructor(link: RedisLink, local: MemoryStubs) {
    this.#link = link;
    this.#redis = link.define<StubScripts>({
      addStub: { numberOfKeys: 7, lua: ADD_STUB },
      removeStubs: { numberOfKeys: 5, lua: REMOVE_STUBS },
      takeStub: { numberOfKeys: 5, lua: TAKE_STUB },
    });
    this.#local = local;
  }

  /** Forgets every stub read and judged (the admin API's readers changed). */
  forget(): void {
    this.#verdicts.clear();
    this.#byOperation.clear();
  }

  mayHaveStubs(): boolean {
    return this.#link.up ? this.#link.seen.stubs > 0 : this.#local.mayHaveStubs();
  }

  /**
   * The newest stub of the request's operation that matches; one of its `remaining` taken in
   * Redis atomically, the next one when another instance took the last. A stub without
   * `remaining` needs no take: the version read says it is still kept.
   */
  take(request: MatchFacts): Promise<Stub | undefined> {
    const link = this.#link;
    return link.shared(
      async () => {
        if (request.operationId === null) return undefined;
        const stubs = await this.#stubsFor(request.operationId);
        for (let i = stubs.length - 1; i >= 0; i--) {
          const stub = stubs[i];
          if (!matches(stub.match, request)) continue;
          if (stub.remaining === undefined) return structuredClone(stub);
          const [taken, left, repairs] = await this.#redis.takeStub(
            ...this.#keys(),
            link.keys.stubsOfPrefix,
            stub.id,
          );
          link.seen.stubs = left;
          link.noteRepairs(repairs, 'stubs');
          if (taken === 1) return structuredClone(stub);
        }
        return undefined;
      },
      () => this.#local.take(request),
      [],
      refused,
    );
  }

  /** One operation's stubs, oldest first: from memory while the stubs version stands. */
  async #stubsFor(operationId: string): Promise<Stub[]> {
    const { keys: k, redis, seen } = this.#link;
    const cached = this.#byOperation.get(operationId);
    if (cached !== undefined && cached.version === seen.stubsVersion) return cached.stubs;
    const version = (await redis.get(k.stubVersion)) ?? '0';
    if (cached?.version === version) return cached.stubs;
    const kept = await this.#link.listKept([k.stubsOf(operationId), k.stubs, k.stubCounts]);
    const stubs = await this.#read(kept);
    this.#byOperation.set(operationId, { version, stubs });
    return stubs;
  }

  /** Stubs read back, each judged once by the admin API's reader (a verdict kept by its text). */
  async #read(kept: { raw: string; left: number }[]): Promise<Stub[]> {
    if (this.#verdicts.size > MAX_STUB_VERDICTS) this.#verdicts.clear();
    const out: Stub[] = [];
    for (const { raw, left } of kept) {
      const entry = parsed<{ id?: unknown }>(raw);
      const id = typeof entry?.id === 'string' ? entry.id : undefined;
      let verdict = id === undefined ? undefined : this.#verdicts.get(id);
      if (verdict?.raw !== raw) {
        const stub = entry === undefined ? undefined : await this.#link.readers.stub(entry);
        verdict = { raw, stub: stub?.id === id ? stub : undefined };
        if (id !== undefined) this.#verdicts.set(id, verdict);
      }
      if (verdict.stub === undefined) {
        this.#link.noteRepairs(1, 'a stub that is not one (skipped)');
        continue;
      }
      const stub = verdict.stub;
      out.push(stub.remaining === undefined ? stub : { ...stub, remaining: left });
    }
    return out;
  }

  /** Keeps a stub in Redis; Redis away, it is refused (StoreUnavailableError), not kept here. */
  async add(stub: Stub): Promise<Stub> {
    const link = this.#link;
    const k = link.keys;
    return link.shared(
      async () => {
        const added = await this.#redis.addStub(
          ...this.#keys(),
          k.stubSequence,
          k.stubsOf(stub.match.operationId),
          k.stubsOfPrefix,
          stub.id,
          JSON.stringify(stub),
          stub.remaining ?? UNTIMED,
          MAX_STUBS,
          link.options.keepMs,
          stub.match.operationId,
        );
        if (added !== 1) throw new StubLimitError();
        link.seen.stubs += 1;
        return stub;
      },
      () => {
        throw new StoreUnavailableError('stub');
      },
      [],
      refused,
    );
  }

  async remove(id?: string): Promise<number> {
    const local = await this.#local.remove(id);
    return this.#link.shared(
      () =>
        this.#redis.removeStubs(
          ...this.#keys(),
          this.#link.keys.stubsOfPrefix,
          ...(id === undefined ? [] : [id]),
        ),
      () => local,
      [],
      refused,
    );
  }

  /** Stubs oldest first, each with what it has left (absent: until removed). */
  async list(): Promise<Stub[]> {
    const k = this.#link.keys;
    return this.#link.shared(
      async () => {
        const out = await this.#read(
          await this.#link.listKept([k.stubOrder, k.stubs, k.stubCounts]),
        );
        this.#link.seen.stubs = out.length;
        return out;
      },
      () => this.#local.list(),
      [],
      refused,
    );
  }

  /** The five keys of every stub script (scripts.ts). */
  #keys(): [string, string, string, string, string] {
    const k = this.#link.keys;
    return [k.stubOrder, k.stubs, k.stubCounts, k.stubOperationOf, k.stubVersion];
  }
}
