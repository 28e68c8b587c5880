/**
 * @module recordings/personal-data
 * The one list of what counts as personal data or a credential in a live value, for everything
 * that keeps live values on disk (the recorder; the evidence profile). Field names are judged by
 * the words they are made of (`contactEmail`, `api_key`, `IPAddress`, `first-name`); values by
 * patterns that tell them apart from product data (e-mail addresses, card numbers that pass the
 * Luhn check, IBANs that pass mod 97, bearer/basic credentials and JWTs, and the API key in any
 * form src/redaction.ts finds). Names, phone numbers and postal addresses have no such pattern: they
 * are caught by their field name only. A reason names the kind of data, never the value.
 */
import { escapeSegment } from '../contract/index.js';
import { holdsSecret } from '../redaction.js';

/** Found anywhere in a name, its words run together (`homePhone`, `userpassword`, `x_api_key`). */
export const PERSONAL_NAME_PARTS = [
  'accesskey',
  'address',
  'apikey',
  'authoriz',
  'birth',
  'cardholder',
  'cardnumber',
  'cookie',
  'credential',
  'creditcard',
  'email',
  'familyname',
  'firstname',
  'fullname',
  'givenname',
  'lastname',
  'middlename',
  'mobile',
  'nationalid',
  'passphrase',
  'passport',
  'password',
  'passwd',
  'phone',
  'privatekey',
  'secret',
  'session',
  'socialsecurity',
  'surname',
  'token',
  'username',
] as const;

/** Too short to look for inside other words (`tel` in `hotel`, `ip` in `ship`): whole words of a name only, plural allowed. */
export const PERSONAL_NAME_WORDS = [
  'auth',
  'bic',
  'cvc',
  'cvv',
  'dob',
  'fax',
  'iban',
  'ip',
  'ipv4',
  'ipv6',
  'mail',
  'pwd',
  'ssn',
  'tel',
] as const;

/** What a value may be, each with how it is told apart from product data. */
export const PERSONAL_VALUE_KINDS = [
  { kind: 'an e-mail address', test: (text: string) => EMAIL.test(text) },
  { kind: 'a payment card number (passes the Luhn check)', test: hasCardNumber },
  { kind: 'an IBAN (passes the mod-97 check)', test: hasIban },
  { kind: 'a bearer or basic credential', test: (text: string) => CREDENTIAL.test(text) },
  { kind: 'a JSON Web Token', test: (text: string) => JWT.test(text) },
] as const;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
/** 13-19 digits, plain or in the groups cards are printed in (4-4-4-x, 4-6-5), standing alone: not inside a UUID or a code. */
const CARD_LIKE =
  /(?<![\w-])(?:\d{13,19}|\d{4}[ -]\d{4}[ -]\d{4}[ -]\d{1,7}|\d{4}[ -]\d{6}[ -]\d{4,5})(?![\w-])/g;
const IBAN_LIKE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;
const CREDENTIAL = /\b(?:bearer|basic)\s+[A-Za-z0-9._~+/-]{8,}=*/i;
const JWT = /\beyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*/;

export interface PersonalDataOptions {
  /** Secrets (the API key) that must not be kept in any encoding. */
  secrets?: readonly string[];
}

/** The words of a field name: `contactEMailAddress` -> contact, e, mail, address. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .filter(Boolean);
}

/** Why a field name looks personal; undefined when it does not. */
export function personalName(name: string): string | undefined {
  const words = wordsOf(name);
  const joined = words.join('');
  const part = PERSONAL_NAME_PARTS.find((p) => joined.includes(p));
  if (part) return `its name "${name}" suggests personal data or a credential (${part})`;
  const word = words.find((w) =>
    (PERSONAL_NAME_WORDS as readonly string[]).some((p) => w === p || w === `${p}s`),
  );
  if (word) return `its name "${name}" suggests personal data or a credential (${word})`;
  return undefined;
}

/** Why a value looks personal; undefined when it does not. Numbers are read as their digits. */
export function personalValue(
  value: unknown,
  options: PersonalDataOptions = {},
): string | undefined {
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' && Number.isSafeInteger(value)
        ? String(value)
        : undefined;
  if (text === undefined) return undefined;
  for (const { kind, test } of PERSONAL_VALUE_KINDS) if (test(text)) return `its value is ${kind}`;
  if (options.secrets && holdsSecret(text, options.secrets)) return 'its value holds the API key';
  return undefined;
}

/**
 * The reusable predicate: why a field (its name, its value, or both) must not be kept; undefined
 * when nothing suggests personal data. `name` may be undefined (an array item).
 */
export function looksPersonal(
  name: string | undefined,
  value: unknown,
  options: PersonalDataOptions = {},
): string | undefined {
  return (name === undefined ? undefined : personalName(name)) ?? personalValue(value, options);
}

/**
 * The first personal field in a JSON value, by JSON pointer, walking every value; names are judged
 * only where `judgeName(pointer)` says so (e.g. undeclared fields: declared ones are the
 * document's own). Undefined when there is none.
 */
export function findPersonalData(
  root: unknown,
  options: PersonalDataOptions & { judgeName?: (pointer: string) => boolean } = {},
): { pointer: string; reason: string } | undefined {
  const judgeName = options.judgeName ?? (() => true);
  const stack: { value: unknown; pointer: string; name?: string }[] = [
    { value: root, pointer: '' },
  ];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, pointer, name } = item;
    const reason =
      (name !== undefined && judgeName(pointer) ? personalName(name) : undefined) ??
      personalValue(value, options);
    if (reason) return { pointer, reason };
    if (Array.isArray(value))
      value.forEach((v, i) => stack.push({ value: v, pointer: `${pointer}/${i}` }));
    else if (value !== null && typeof value === 'object')
      for (const [key, v] of Object.entries(value))
        stack.push({ value: v, pointer: `${pointer}/${escapeSegment(key)}`, name: key });
  }
  return undefined;
}

function hasCardNumber(text: string): boolean {
  for (const [match] of text.matchAll(CARD_LIKE)) if (luhn(match.replace(/[ -]/g, ''))) return true;
  return false;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function hasIban(text: string): boolean {
  for (const [match] of text.matchAll(IBAN_LIKE)) {
    const run = match.replace(/ /g, '');
    // The pattern is greedy (it may take in a following code): any length an IBAN can have counts.
    for (let length = 15; length <= Math.min(run.length, 34); length += 1)
      if (mod97(run.slice(0, length)) === 1) return true;
  }
  return false;
}

/** ISO 13616: the country and check digits moved to the end, letters as 10..35, modulo 97. */
function mod97(iban: string): number {
  let remainder = 0;
  for (const ch of `${iban.slice(4)}${iban.slice(0, 4)}`) {
    const digits = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}
