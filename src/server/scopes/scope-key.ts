/**
 * @module scopes/scope-key
 * A scope's API key: `wdm-scope-` and 32 random bytes in base64url, a form the root app can tell
 * apart without a lookup, so only such keys cost one (routing.ts). Held as a SHA-256 digest and
 * compared in constant time, like every key (config/keys.ts). A scope's secret is blanked from
 * the journal and the log by its form (`withScopeKeysBlanked`), in any case or encoding, whoever's
 * it is (this scope's, another's, an ended one's): no app holds a scope's secret.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createKeyFormScrubber } from '../../key-forms.js';
import type { SecretScrubber } from '../../redaction.js';

export const SCOPE_KEY_PREFIX = 'wdm-scope-';
const SECRET_BYTES = 32;
/** 32 bytes in base64url without padding: 43 characters. */
const BODY_LENGTH = Math.ceil((SECRET_BYTES * 4) / 3);
const SCOPE_KEY_PATTERN = new RegExp(`^${SCOPE_KEY_PREFIX}[A-Za-z0-9_-]{${BODY_LENGTH}}$`);

/** A fresh secret, and the scope's id (hex, so `scope-<id>` is a valid key name). */
export function mintScopeKey(): { secret: string; id: string } {
  return {
    secret: `${SCOPE_KEY_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`,
    id: randomBytes(8).toString('hex'),
  };
}

/** Whether a presented key has a scope key's form (the one test every API request pays). */
export function looksLikeScopeKey(secret: string | undefined): secret is string {
  return (
    secret !== undefined && secret.startsWith(SCOPE_KEY_PREFIX) && SCOPE_KEY_PATTERN.test(secret)
  );
}

/** The digest a scope is found by (its bytes as a binary string, a Map key). */
export function scopeKeyDigest(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/** Constant-time equality of two digests. */
export function sameDigest(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A scope's id as its admin path names it: the hex `mintScopeKey` makes, nothing else. */
export const SCOPE_ID_PATTERN = /^[0-9a-f]{16}$/;

/** The key name the journal, the log and a stub's match show for a scope's requests. */
export const scopeKeyName = (id: string) => `scope-${id}`;

/** A scope key in any spelling: its prefix and its base64url body (src/key-forms.ts). */
const SCOPE_KEY_FORMS = createKeyFormScrubber({
  prefix: SCOPE_KEY_PREFIX,
  bodyLength: BODY_LENGTH,
});

/**
 * `scrubber`, and then any text of a scope key's form blanked, in any case or encoding: a scope
 * key shown to an app (the root's journal, another scope's, its own) is not among its secrets.
 */
export function withScopeKeysBlanked(scrubber: SecretScrubber): SecretScrubber {
  return bothScrubbers(scrubber, SCOPE_KEY_FORMS);
}

/** Two scrubbers as one: every secret either finds is blanked. */
export function bothScrubbers(a: SecretScrubber, b: SecretScrubber): SecretScrubber {
  return {
    scrubText: (text) => b.scrubText(a.scrubText(text)),
    foundIn: (text) => a.foundIn(text) || b.foundIn(text),
    scrubBytes(bytes) {
      const first = a.scrubBytes(bytes);
      const second = b.scrubBytes(first.bytes);
      return { bytes: second.bytes, found: first.found || second.found };
    },
    longestForm: Math.max(a.longestForm, b.longestForm),
    shortestForm: Math.min(a.shortestForm, b.shortestForm),
  };
}
