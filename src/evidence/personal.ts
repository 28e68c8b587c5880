/**
 * @module evidence/personal
 * Whether a field's value looks personal or secret, so a profile never keeps it: by the field's
 * name (e-mail, phone, name, address, token, key, ...) or by the value's form (an e-mail address,
 * a phone number, an IP address, a long opaque token). Deliberately eager: a value wrongly held
 * back only makes a location `open` in the profile; a value wrongly kept would be published.
 * The proxy's recordings are to get the same predicate (src/recordings/personal-data.ts); until
 * then this is the evidence modules' own.
 */

const PERSONAL_NAME =
  /e-?mail|phone|mobile|fax|first_?name|last_?name|sur_?name|full_?name|given_?name|family_?name|person|address|street|city|zip|postal|birth|ssn|passport|\bip\b|ip_?addr|user|login|contact|owner|customer|account|token|secret|password|passwd|api_?key|auth|session|cookie/i;
const EMAIL = /[^\s@]+@[^\s@]+\.[^\s@]+/;
const PHONE = /^\+?[\d\s().-]{7,}$/;
const IPV4 = /\b\d{1,3}(\.\d{1,3}){3}\b/;
const IPV6 = /^[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}$/i;
/** An opaque token: 24 or more URL-safe characters mixing letters and digits, no spaces. */
const TOKEN = /^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9_\-+/=.]{24,}$/;

/** Whether a field named `name` holding `value` may carry personal or secret data. */
export function looksPersonal(name: string, value: unknown): boolean {
  const spaced = name.replace(/([a-z])([A-Z])/g, '$1_$2');
  if (PERSONAL_NAME.test(spaced)) return true;
  if (typeof value !== 'string') return false;
  return (
    (value.includes('@') && EMAIL.test(value)) ||
    (PHONE.test(value) && /\d{3}/.test(value) && !/^\d{4}-\d{2}-\d{2}/.test(value)) ||
    IPV4.test(value) ||
    IPV6.test(value) ||
    TOKEN.test(value)
  );
}
