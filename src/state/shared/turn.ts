/**
 * @module state/shared/turn
 * What one turn of the event loop asks of the shared store, sent as one script call (TURN in
 * shared/scripts.ts): the turn's admits and slot releases in the order they came, and its journal
 * entries. Under load a turn holds tens of requests; one call for all of them, instead of two per
 * request, is what keeps a fleet's cost per request small, on the mock and on redis-server.
 * Redis runs the ops one after the other in arrival order, so each admit is answered exactly as
 * it would have been alone; a turn is bounded (MAX_TURN_ITEMS), a fuller one goes out at once.
 */
import type { Tier } from '../limits/rate-limiter.js';
import type { JournalEntry } from '../journal/store.js';

/** Most admits, releases and journal entries one call carries (Lua's unpack and the reply stay small). */
export const MAX_TURN_ITEMS = 256;

/** The KEYS before the per-key pairs: clock offset, armed-fault order, stub order, journal, record-edit version. */
export const FIXED_KEYS = 5;

/** One admit waiting for its turn's reply; its slot's lease id is the instance's lease prefix and `lease`. */
export interface WaitingAdmit<A> {
  keyName: string;
  tierName: string;
  tier: Tier;
  lease: number;
  answer(admission: A): void;
}

/** What the script tells every instance with each turn, beside the admits' answers. */
export interface TurnNews {
  offset: number;
  armed: number;
  stubs: number;
  /** The stubs' version (stubs/scripts.ts): a request reads its operation's stubs only when it moved. */
  stubsVersion: string;
  repaired: number;
  /** The record-edit log's version (records/redis.ts). */
  records: string;
}

export class Turn<A> {
  /** Key names in the order first met: the i-th has its windows hash and slots at KEYS[6 + 2i], [7 + 2i]. */
  readonly keyNames: string[] = [];
  readonly admits: WaitingAdmit<A>[] = [];
  readonly entries: JournalEntry[] = [];
  readonly #keyIndex = new Map<string, number>();
  readonly #tiers: Tier[] = [];
  readonly #tierIndex = new Map<string, number>();
  readonly #ops: (string | number)[] = [];
  #items = 0;

  /** `firstLease`: the lease number of the turn's first admit; the next ones count up from it. */
  constructor(readonly firstLease: number) {}

  get full(): boolean {
    return this.#items >= MAX_TURN_ITEMS;
  }

  /** Queues an admit; `baseNow` is the instance's clock without the QA offset (Redis adds the shared one). */
  admit(keyName: string, tierName: string, tier: Tier, baseNow: number) {
    let tierNumber = this.#tierIndex.get(tierName);
    if (tierNumber === undefined) {
      this.#tiers.push(tier);
      tierNumber = this.#tiers.length;
      this.#tierIndex.set(tierName, tierNumber);
    }
    // At most MAX_TURN_ITEMS tiers in a turn: the tier number fits below 1024.
    this.#ops.push(this.#windowsKey(keyName) * 1024 + tierNumber, baseNow);
    this.#items += 1;
    const lease = this.firstLease + this.admits.length;
    return new Promise<A>((answer) => this.admits.push({ keyName, tierName, tier, lease, answer }));
  }

  release(keyName: string, lease: number, bytes: number): void {
    this.#ops.push(-this.#windowsKey(keyName), lease, bytes);
    this.#items += 1;
  }

  record(entry: JournalEntry): void {
    this.entries.push(entry);
    this.#items += 1;
  }

  /** The windows hash's KEYS index (1-based) of a key name, its slots the next one. */
  #windowsKey(keyName: string): number {
    let index = this.#keyIndex.get(keyName);
    if (index === undefined) {
      index = FIXED_KEYS + 1 + 2 * this.keyNames.length;
      this.keyNames.push(keyName);
      this.#keyIndex.set(keyName, index);
    }
    return index;
  }

  /** The script's arguments after its KEYS: settings, tiers, ops, then the journal entries. */
  argv(settings: {
    leaseMs: number;
    journalCapacity: number;
    keepMs: number;
    leasePrefix: string;
  }) {
    const tiers = this.#tiers.flatMap((t) => [
      t.requestsPerMinute,
      t.minuteWindowSeconds * 1000,
      t.requestsPerHour,
      t.hourWindowSeconds * 1000,
      t.bytesPerWindow,
      t.transferWindowSeconds * 1000,
      t.concurrentConnections,
      Math.ceil(
        1000 * Math.max(t.minuteWindowSeconds, t.hourWindowSeconds, t.transferWindowSeconds),
      ) + 60_000,
    ]);
    const entries = this.entries.map((entry) => JSON.stringify(entry));
    return [
      settings.leaseMs,
      settings.journalCapacity,
      settings.keepMs,
      this.#tiers.length,
      entries.length,
      settings.leasePrefix,
      this.firstLease,
      ...tiers,
      ...this.#ops,
      ...entries,
    ];
  }
}

/** The shared news of a reply and each admit's code and value (see TURN). */
export function readReply(reply: (number | string)[]): { news: TurnNews; codes: number[] } {
  const [offset, armed, stubs, repaired, records] = reply as number[];
  const [count, stubsVersion = '0'] = String(stubs).split(':');
  // The news is the reply's first five members.
  return {
    news: { offset, armed, stubs: Number(count), stubsVersion, repaired, records: String(records) },
    codes: reply.slice(5) as number[],
  };
}

/**
 * The turn being filled and its sending. The first item of a turn asks for a send after this turn
 * of the event loop (setImmediate, once the sockets read in it have all been handled). One call is
 * in flight at a time: what comes while it is out waits for its reply (bounded by the command
 * timeout) and goes in the next call, so a busy instance sends fewer, fuller calls, each waking
 * redis-server once. A turn that fills up is closed and the next item starts another.
 */
export class TurnQueue<A> {
  #open: Turn<A> | undefined;
  /** The lease number the next turn's first admit takes. */
  #nextLease = 1;
  /** Closed turns, oldest first, waiting for the call in flight. */
  readonly #closed: Turn<A>[] = [];
  #inFlight: Promise<void> | undefined;
  constructor(private readonly send: (turn: Turn<A>) => Promise<void>) {}

  /** The turn to add to. */
  open(): Turn<A> {
    const turn = this.#open;
    if (turn && !turn.full) return turn;
    if (turn) this.#close(turn);
    const next = new Turn<A>(this.#nextLease);
    this.#open = next;
    setImmediate(() => this.#next());
    return next;
  }

  /** Sends everything waiting (a clean shutdown), resolving once the last reply is settled. */
  async flush(): Promise<void> {
    while (this.#inFlight || this.#open || this.#closed.length > 0) {
      this.#next();
      await this.#inFlight;
    }
  }

  /** No more items for `turn`: the next turn's leases count on from its last. */
  #close(turn: Turn<A>, wait = true): void {
    this.#nextLease = turn.firstLease + turn.admits.length;
    if (this.#open === turn) this.#open = undefined;
    if (wait) this.#closed.push(turn);
  }

  /** Sends the oldest waiting turn unless a call is in flight (its reply sends the next). */
  #next(): void {
    if (this.#inFlight) return;
    const turn = this.#closed.shift() ?? this.#open;
    if (!turn) return;
    if (turn === this.#open) this.#close(turn, false);
    const done = () => {
      this.#inFlight = undefined;
      this.#next();
    };
    this.#inFlight = this.send(turn).then(done, done);
  }
}
