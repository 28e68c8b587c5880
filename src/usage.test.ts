/**
 * @module usage.test
 * The one reading of a number a user typed: decimal digits only, within the field's range, and a
 * usage error that names the field it came from (a flag or a variable) and the rule.
 */
import { describe, expect, it } from 'vitest';
import { decimalInteger } from './decimal.js';
import { integerArgument, numberArgument, UsageError } from './usage.js';

describe('decimalInteger', () => {
  it('reads decimal digits, with a leading minus', () => {
    expect(decimalInteger('0')).toBe(0);
    expect(decimalInteger('4010')).toBe(4010);
    expect(decimalInteger('-3')).toBe(-3);
    expect(decimalInteger(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([
    '',
    ' ',
    ' 5',
    '5 ',
    '+5',
    '1e3',
    '0x10',
    '1.0',
    '1.5',
    '1_000',
    'Infinity',
    'NaN',
    '-',
  ])('refuses %j, which Number() alone would read as a number or as 0', (text) =>
    expect(decimalInteger(text)).toBeUndefined(),
  );

  it('refuses an integer too large to hold exactly', () => {
    expect(decimalInteger('9007199254740993')).toBeUndefined();
    expect(decimalInteger('1'.repeat(400))).toBeUndefined();
  });
});

describe('integerArgument', () => {
  const error = (fn: () => unknown): UsageError => {
    try {
      fn();
    } catch (e) {
      if (e instanceof UsageError) return e;
      throw e;
    }
    throw new Error('no usage error');
  };

  it('returns the integer within the range', () => {
    expect(integerArgument('--port', '0', { min: 0, max: 65535 })).toBe(0);
    expect(integerArgument('--workers', '4', { min: 1 })).toBe(4);
  });

  it.each([
    ['0', { min: 1 }, '--workers must be an integer >= 1 (got "0")'],
    ['-1', { min: 0 }, '--workers must be an integer >= 0 (got "-1")'],
    ['1.5', { min: 1 }, '--workers must be an integer >= 1 (got "1.5")'],
    ['1e3', { min: 1 }, '--workers must be an integer >= 1 (got "1e3")'],
    ['', { min: 1 }, '--workers must be an integer >= 1 (got "")'],
    [
      '99999999999999999999',
      { min: 1 },
      '--workers must be an integer >= 1 (got "99999999999999999999")',
    ],
    ['70000', { min: 0, max: 65535 }, '--workers must be an integer from 0 to 65535 (got "70000")'],
  ])('refuses %j (%o) naming the field and the rule', (raw, range, message) => {
    expect(error(() => integerArgument('--workers', raw, range)).message).toBe(message);
  });

  it('names the field it was given, a variable as well as a flag', () => {
    expect(error(() => integerArgument('PORT', 'x', { min: 0 })).message).toMatch(/^PORT must be/);
  });
});

describe('numberArgument', () => {
  it('reads decimal fractions within the range', () => {
    expect(numberArgument('--scale', '0.5', { min: 0, exclusiveMin: true })).toBe(0.5);
    expect(numberArgument('--scale', '1000', { min: 0, exclusiveMin: true })).toBe(1000);
  });

  it.each(['0', '-1', '', '1e3', ' 2', '.5.', 'Infinity', '0x10'])(
    'refuses %j naming the field',
    (raw) =>
      expect(() => numberArgument('--scale', raw, { min: 0, exclusiveMin: true })).toThrow(
        new UsageError(`--scale must be a number > 0 (got "${raw}")`),
      ),
  );
});
