import { code as currencyRecord } from 'currency-codes';
import { Decimal } from 'decimal.js';
import type { ErrorDetail } from '../errors.js';

/**
 * Money in a currency, exactly (CONTRACT §14): ISO 4217 codes and their minor units from the `currency-codes`
 * package (ISO's own list, with its publish date), and amounts as decimal strings between the JSON body and
 * NUMERIC columns, computed with decimal.js: never a binary float in between. A JSON number arrives as a
 * double, whose shortest decimal spelling (`String(n)`, ECMAScript's Number::toString) is the literal the
 * caller wrote for any amount up to 15 significant digits, so that spelling is the amount.
 */

/** A three-letter uppercase code in ISO 4217's list (`usd` is not a code: the API speaks uppercase). */
export function isCurrencyCode(value: string): boolean {
  return /^[A-Z]{3}$/.test(value) && currencyRecord(value) !== undefined;
}

/** The decimals of the currency's minor unit (JPY 0, USD 2, KWD 3); 2 for the few ISO lists without one (gold, SDRs). */
export function minorUnits(currency: string): number {
  const digits = currencyRecord(currency)?.digits;
  return typeof digits === 'number' && Number.isInteger(digits) ? digits : 2;
}

/** The 400 detail for a code that is not in ISO 4217's list, or none. */
export function currencyDetail(value: string, field: string, where: ErrorDetail['in'] = 'body'): ErrorDetail[] {
  return isCurrencyCode(value) ? [] : [{ field, in: where, message: 'must be an ISO 4217 currency code, as USD, EUR or JPY' }];
}

/** A JSON number as the decimal the caller wrote. */
export const decimalOf = (amount: number | string): Decimal => new Decimal(typeof amount === 'number' ? String(amount) : amount);

/** The 400 detail for an amount with more decimals than the currency's minor unit has. */
export function amountDetail(amount: number | string, currency: string, field: string): ErrorDetail[] {
  const digits = minorUnits(currency);
  if (decimalOf(amount).decimalPlaces() <= digits) return [];
  const unit = digits === 0 ? 'no decimals' : `at most ${digits} decimal${digits === 1 ? '' : 's'}`;
  return [{ field, in: 'body', message: `${currency} amounts have ${unit}` }];
}

export type PercentAdjustment = { type: 'percentageDecrease' | 'percentageIncrease'; value: number | string };

/**
 * A base price (a NUMERIC's text) moved by a percentage and rounded half-up (away from zero at the half) to the
 * currency's minor unit, as a decimal string: 19.99 USD less 15% is 16.9915, so 16.99; 10.005 is 10.01.
 */
export function adjustedAmount(base: string, adjustment: PercentAdjustment, currency: string): string {
  const percent = decimalOf(adjustment.value);
  const factor = adjustment.type === 'percentageDecrease' ? new Decimal(100).minus(percent) : new Decimal(100).plus(percent);
  return new Decimal(base).times(factor).dividedBy(100).toDecimalPlaces(minorUnits(currency), Decimal.ROUND_HALF_UP).toString();
}

/** Compares two decimal strings exactly (negative: a < b). */
export const compareAmounts = (a: string, b: string): number => new Decimal(a).comparedTo(b);
