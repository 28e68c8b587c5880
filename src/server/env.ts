/**
 * @module env
 * The one typed environment of the Hono app: what each middleware leaves for the next.
 */
import type { Operation, ParsedInput } from '../contract/index.js';
import type { KeyRecord } from './config/keys.js';
import type { JournalFault } from '../state/journal/store.js';
import type { SlotHandle } from '../state/limits/store.js';
import type { ApiContext } from './context.js';
import type { BodyShape } from './faults/actions.js';

export interface AppEnv {
  Variables: {
    /** The environment (production or staging) and its dataset this route serves. */
    api: ApiContext;
    /** The document's operation this request was routed to. */
    operation: Operation;
    /** The authenticated key (never its secret). */
    key: KeyRecord;
    /** Query and path input, typed and defaulted by the operation's schemas. */
    input: ParsedInput;
    /** The raw text of a POST body, read once within the body limit. */
    bodyText: string;
    /** Offset of the first byte of the POST body that is not UTF-8, when there is one. */
    bodyNotUtf8At: number;
    /** The parsed, validated JSON body of a POST. */
    body: unknown;
    /** How a QA control wants the body to leave (cut short, dribbled); applied by the delivery step. */
    bodyShape: BodyShape;
    /** `x-ratelimit-limit` and `-remaining` for a successful answer (set by the rate limiter). */
    rateLimitHeaders: Record<string, string>;
    /** The stub that answered this request, if one did (the journal names it). */
    stub: { id: string; unchecked: boolean; skipped?: string };
    /** The QA fault that shaped this answer, and who asked for it (the journal names it). */
    fault: JournalFault;
    /** The rate limiter's concurrent-connection slot, released by the delivery step with the body bytes actually written. */
    slot: SlotHandle;
  };
}
