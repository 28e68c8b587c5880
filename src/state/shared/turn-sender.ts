/**
 * @module state/shared/turn-sender
 * Sends each turn (turn.ts) as one TURN call and settles its reply: the limits' admits are
 * answered, and every concern hears its news (the clock offset, whether a fault or a stub is kept
 * anywhere, the stubs' and the record edits' versions, the repairs). Redis away: the turn's
 * admits are decided here (`local`), its entries journaled here, its releases left to their leases.
 */
import type { AdjustableClock } from '../clock/clock.js';
import type { JournalEntry } from '../journal/store.js';
import { wholeNumber, type RedisLink } from './fail-over.js';
import { turnKeys } from './keys.js';
import { TURN } from './scripts.js';
import { readReply, TurnQueue, type Turn, type WaitingAdmit } from './turn.js';

interface TurnScript {
  turn(keyCount: number, ...args: (string | number)[]): Promise<(number | string)[]>;
}

/** What the turn asks of the concerns whose items it carries. */
export interface TurnParties<A> {
  /** An admit's answer from its code and value (see TURN). */
  answer(admit: WaitingAdmit<A>, code: number, value: number): A;
  /** Redis away: an admit decided on this instance's own state. */
  admitHere(admit: WaitingAdmit<A>): A;
  /** Redis away: an entry journaled on this instance's own state. */
  recordHere(entry: JournalEntry): void;
  /** The journal's capacity. */
  readonly journalCapacity: number;
}

export class TurnSender<A> {
  readonly #link: RedisLink;
  readonly #redis: TurnScript;
  readonly #clock: AdjustableClock;
  readonly #parties: () => TurnParties<A>;
  /** This turn of the event loop's admits, releases and journal entries: one script call. */
  readonly #queue = new TurnQueue<A>((turn) => this.#send(turn));
  /** A lease's id in Redis is this and its number. */
  readonly leasePrefix: string;

  constructor(link: RedisLink, clock: AdjustableClock, parties: () => TurnParties<A>) {
    this.#link = link;
    // Its key count varies with the turn: passed first.
    this.#redis = link.define<TurnScript>({ turn: { lua: TURN } });
    this.#clock = clock;
    this.#parties = parties;
    this.leasePrefix = `${link.options.instanceId}:`;
  }

  /** The turn to add to. */
  open(): Turn<A> {
    return this.#queue.open();
  }

  /** Sends everything waiting (a clean shutdown), resolving once the last reply is settled. */
  flush(): Promise<void> {
    return this.#queue.flush();
  }

  /**
   * One turn's call. Spoiled data: the turn's keys repaired and the turn sent once more (the
   * script changes nothing before it has read every key it writes).
   */
  #send(turn: Turn<A>): Promise<void> {
    const link = this.#link;
    const parties = this.#parties();
    const { keys, owned } = turnKeys(link.keys, turn.keyNames);
    const argv = turn.argv({
      leaseMs: link.options.leaseMs,
      journalCapacity: parties.journalCapacity,
      keepMs: link.options.keepMs,
      leasePrefix: this.leasePrefix,
    });
    return link.shared(
      async () => {
        const sent = ++link.seen.turnsSent;
        const reply = await this.#redis.turn(keys.length, ...keys, ...argv);
        this.#settle(turn, reply, sent, parties);
      },
      () => {
        for (const a of turn.admits) a.answer(parties.admitHere(a));
        for (const entry of turn.entries) parties.recordHere(entry);
      },
      owned,
    );
  }

  #settle(turn: Turn<A>, reply: (number | string)[], sent: number, parties: TurnParties<A>): void {
    const { news, codes } = readReply(reply);
    const seen = this.#link.seen;
    if (sent > seen.recordsForgotten) seen.records = news.records;
    this.#link.noteRepairs(news.repaired, 'limits, slots or the journal');
    this.#clock.follow(wholeNumber(news.offset));
    seen.armed = news.armed;
    seen.stubs = wholeNumber(news.stubs);
    seen.stubsVersion = news.stubsVersion;
    turn.admits.forEach((a, i) => a.answer(parties.answer(a, codes[2 * i], codes[2 * i + 1])));
  }
}
