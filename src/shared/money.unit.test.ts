import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustedInIntegers, compareAmounts, isAmountText, isBelowPrice } from './money.js';

/**
 * The integer paths of money.ts (adjustedInIntegers, compareAmounts' digit comparison) against decimal.js, the
 * arithmetic they replace in the resolver's hot loop: the same text and the same order for every amount, and
 * no answer (decimal.js decides) where decimal.js would round an intermediate or write an exponent.
 */

/** What adjustedAmount computed before the integer path: decimal.js with its default 20-digit precision. */
function byDecimal(base: string, percent: string, decrease: boolean, digits: number): string {
  const factor = decrease ? new Decimal(100).minus(percent) : new Decimal(100).plus(percent);
  return new Decimal(base).times(factor).dividedBy(100).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP).toString();
}

const digitString = (min: number, max: number) =>
  fc.array(fc.constantFrom('0', '1', '2', '4', '5', '9'), { minLength: min, maxLength: max }).map((digits) => digits.join(''));
// NUMERIC's text: an integer part and maybe a fraction (trailing zeros kept, as "5.00"); short and long ones
const amountArb = fc
  .tuple(fc.oneof(digitString(1, 3), digitString(1, 22)), fc.option(fc.oneof(digitString(1, 3), digitString(1, 12)), { nil: null }))
  .map(([whole, fraction]) => (fraction === null ? whole : `${whole}.${fraction}`));
// a JSON number's spelling (String(n)) or NUMERIC's text of 0..100
const percentArb = fc.oneof(
  fc.integer({ min: 0, max: 10_000 }).map((hundredths) => String(hundredths / 100)),
  fc.double({ min: 0, max: 100, noNaN: true }).map(String),
  fc.constantFrom('0', '100', '15.5', '33.3', '12.50', '99.999999999999999999'),
);

describe('money in integers (src/shared/money.ts)', () => {
  it('adjusts as decimal.js does, or leaves it to decimal.js', () => {
    fc.assert(
      fc.property(amountArb, percentArb, fc.boolean(), fc.constantFrom(0, 2, 3, 4), (base, percent, decrease, digits) => {
        const inIntegers = adjustedInIntegers(base, percent, decrease, digits);
        if (inIntegers !== undefined) expect(inIntegers).toBe(byDecimal(base, percent, decrease, digits));
      }),
      { numRuns: 5000 },
    );
  });

  it('takes the integer path for prices as stores have them', () => {
    expect(adjustedInIntegers('19.99', '15', true, 2)).toBe('16.99');
    expect(adjustedInIntegers('10.01', '50', true, 2)).toBe('5.01');
    expect(adjustedInIntegers('20.00', '15.5', true, 2)).toBe('16.9');
    expect(adjustedInIntegers('1001', '50', true, 0)).toBe('501');
    expect(adjustedInIntegers('33.33', '100', true, 2)).toBe('0');
    expect(adjustedInIntegers('1.235', '10', false, 3)).toBe('1.359');
    // decimal.js decides: a sign, an exponent, more than 20 significant digits
    expect(adjustedInIntegers('-5', '10', true, 2)).toBeUndefined();
    expect(adjustedInIntegers('5', '1e-7', true, 2)).toBeUndefined();
    expect(adjustedInIntegers('123456789012345678.91', '15', true, 2)).toBeUndefined();
  });

  it('orders amounts as decimal.js does', () => {
    const anyAmount = fc.oneof(amountArb, fc.constantFrom('-1', '-0.5', '1e3', '0.0', '007.50'));
    fc.assert(
      fc.property(anyAmount, anyAmount, (a, b) => {
        expect(compareAmounts(a, b)).toBe(new Decimal(a).comparedTo(b));
      }),
      { numRuns: 5000 },
    );
    expect(compareAmounts('5.00', '5')).toBe(0);
    expect(compareAmounts('0.45', '0.5')).toBe(-1);
    expect(compareAmounts('10', '9.99')).toBe(1);
  });
});

describe("a file's amounts (Shopify's market price cells)", () => {
  it('are digits with maybe a decimal part; nothing else is one', () => {
    for (const text of ['0', '19.99', '1000', '0.005', '9999999999999']) expect(isAmountText(text), text).toBe(true);
    for (const text of ['', '-1', '1e3', '1,50', ' 1', '.5', '5.', '19.99 EUR', '10000000000000'])
      expect(isAmountText(text), text).toBe(false);
  });

  it('a compare-at price is below its price by exact decimal comparison, never for a cell that is not an amount', () => {
    expect(isBelowPrice('9.99', '10')).toBe(true);
    expect(isBelowPrice('0.1', '0.10000000000000001')).toBe(true);
    expect(isBelowPrice('10', '10.00')).toBe(false);
    expect(isBelowPrice('12', '10')).toBe(false);
    expect(isBelowPrice('abc', '10')).toBe(false);
    expect(isBelowPrice('1', 'ten')).toBe(false);
  });
});
