/**
 * @module state/shared/keys
 * Every key the Redis store writes, under one prefix, and what each must hold (spoiled data is
 * a key of another type: repaired, see shared/fail-over.ts).
 */

/** What a key under the prefix must hold; `integer` is a string holding one. */
export type KeyKind = 'hash' | 'zset' | 'list' | 'integer';

/** Glob characters in a prefix, escaped for SCAN's MATCH. */
const globSafe = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');

export function keysOf(prefix: string) {
  return {
    windows: (keyName: string) => `${prefix}limits:${keyName}`,
    slots: (keyName: string) => `${prefix}slots:${keyName}`,
    allWindows: `${globSafe(prefix)}limits:*`,
    allSlots: `${globSafe(prefix)}slots:*`,
    clock: `${prefix}clock-offset-ms`,
    faultOrder: `${prefix}faults:order`,
    faults: `${prefix}faults:data`,
    faultCounts: `${prefix}faults:left`,
    faultSequence: `${prefix}faults:sequence`,
    stubOrder: `${prefix}stubs:order`,
    stubs: `${prefix}stubs:data`,
    stubCounts: `${prefix}stubs:left`,
    stubSequence: `${prefix}stubs:sequence`,
    stubOperationOf: `${prefix}stubs:operation-of`,
    stubVersion: `${prefix}stubs:version`,
    /** The prefix of the per-operation index sets (stubs/scripts.ts). */
    stubsOfPrefix: `${prefix}stubs:op:`,
    stubsOf: (operationId: string) => `${prefix}stubs:op:${operationId}`,
    journal: `${prefix}journal`,
    /** The journal's dropped count: TURN writes it under the journal's name and `:dropped`. */
    journalDropped: `${prefix}journal:dropped`,
    records: recordKeys(prefix),
  };
}

/**
 * The KEYS of a turn's script (shared/scripts.ts TURN), in its order, and what each must hold:
 * the five of every turn (turn.ts's FIXED_KEYS), then each key name's windows hash and
 * slots.
 */
export function turnKeys(k: ReturnType<typeof keysOf>, keyNames: readonly string[]) {
  const owned: [string, KeyKind][] = [
    [k.clock, 'integer'],
    [k.faultOrder, 'zset'],
    [k.stubOrder, 'zset'],
    [k.journal, 'list'],
    [k.records.version, 'integer'],
  ];
  for (const name of keyNames) owned.push([k.windows(name), 'hash'], [k.slots(name), 'zset']);
  return { keys: owned.map(([key]) => key), owned };
}

/** The keys of the record log under a store's prefix. */
export function recordKeys(prefix: string) {
  return {
    version: `${prefix}records:version`,
    edits: `${prefix}records:edits`,
    bytes: `${prefix}records:bytes`,
    /** Names the list since it was last cleared (or lost with a Redis restart): a random id. */
    epoch: `${prefix}records:epoch`,
  };
}
