/**
 * @module recordings/testdata/personal-names
 * Test-only: the undeclared field names issue 24 found written into recordings, for the module's
 * own test and the proxy's recording test.
 */
export const FOUND_IN_RECORDINGS = [
  'apiKey',
  'api_key',
  'authorization',
  'credential',
  'ssn',
  'iban',
  'creditCard',
  'firstName',
  'fullName',
  'mail',
  'tel',
  'mobile',
  'dob',
  'ip',
] as const;
