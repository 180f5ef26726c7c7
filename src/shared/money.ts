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
 * Plain non-negative amounts are computed in integers (adjustedInIntegers), the rest with decimal.js: the same text.
 */
export function adjustedAmount(base: string, adjustment: PercentAdjustment, currency: string): string {
  const digits = minorUnits(currency);
  const inIntegers = adjustedInIntegers(base, String(adjustment.value), adjustment.type === 'percentageDecrease', digits);
  if (inIntegers !== undefined) return inIntegers;
  const percent = decimalOf(adjustment.value);
  const factor = adjustment.type === 'percentageDecrease' ? new Decimal(100).minus(percent) : new Decimal(100).plus(percent);
  return new Decimal(base).times(factor).dividedBy(100).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP).toString();
}

/** A non-negative decimal without exponent or sign, as NUMERIC's text spells it ("19.99", "0", "1000.5"). */
const PLAIN_AMOUNT = /^(\d+)(?:\.(\d+))?$/;
/** decimal.js keeps 20 significant digits per operation (its default precision), and writes 1e21 and up with an exponent */
const EXACT_DIGITS = 20;

/**
 * `adjustedAmount` in integer minor units, exact (the resolver computes it per item and list: decimal.js cost a
 * tenth of GET /prices' CPU): base × (100 ∓ percent) as one integer over a power of ten, rounded half-up to
 * the currency's digits, written as decimal.js writes it (no trailing zeros). Undefined where decimal.js would
 * round an intermediate (more than 20 significant digits), write an exponent (more than 6 decimals
 * or 21 digits), or meet a sign or exponent in
 * the input, or the factor is negative (a decrease above 100%): those go through decimal.js itself.
 */
export function adjustedInIntegers(base: string, percent: string, decrease: boolean, digits: number): string | undefined {
  const amount = PLAIN_AMOUNT.exec(base);
  const rate = PLAIN_AMOUNT.exec(percent);
  if (!amount || !rate) return undefined;
  const [amountFraction, rateFraction] = [amount[2] ?? '', rate[2] ?? ''];
  const hundred = 100n * 10n ** BigInt(rateFraction.length);
  const rateUnits = BigInt(rate[1] + rateFraction);
  const factor = decrease ? hundred - rateUnits : hundred + rateUnits;
  if (factor < 0n || significantDigits(factor) > EXACT_DIGITS || digits > 6) return undefined;
  const exact = BigInt(amount[1] + amountFraction) * factor;
  if (significantDigits(exact) > EXACT_DIGITS) return undefined;
  // exact / 10^scale is the adjusted amount; keep at most `digits` decimals, the half going up
  const scale = amountFraction.length + rateFraction.length + 2;
  const kept = Math.min(scale, digits);
  const divisor = 10n ** BigInt(scale - kept);
  const rounded = (exact + divisor / 2n) / divisor;
  const text = decimalText(rounded, kept);
  return text.length - (kept > 0 ? kept + 1 : 0) > EXACT_DIGITS ? undefined : text;
}

function significantDigits(value: bigint): number {
  const text = value.toString().replace(/0+$/, '');
  return text === '' ? 0 : text.length;
}

/** An integer over 10^scale as a decimal text without trailing zeros ("16.90" is "16.9", "5.00" is "5"). */
function decimalText(units: bigint, scale: number): string {
  if (scale === 0) return units.toString();
  const padded = units.toString().padStart(scale + 1, '0');
  const fraction = padded.slice(-scale).replace(/0+$/, '');
  const whole = padded.slice(0, -scale);
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/**
 * Compares two decimal strings exactly (negative: a < b). Plain non-negative amounts (NUMERIC's text, which
 * the resolver compares per candidate) digit by digit, without building decimals; anything else with decimal.js.
 */
export function compareAmounts(a: string, b: string): number {
  const x = PLAIN_AMOUNT.exec(a);
  const y = PLAIN_AMOUNT.exec(b);
  if (!x || !y) return new Decimal(a).comparedTo(b);
  const [xWhole, yWhole] = [x[1].replace(/^0+(?=\d)/, ''), y[1].replace(/^0+(?=\d)/, '')];
  if (xWhole.length !== yWhole.length) return xWhole.length < yWhole.length ? -1 : 1;
  if (xWhole !== yWhole) return xWhole < yWhole ? -1 : 1;
  // fractions without trailing zeros compare as strings: a shorter one is the longer one's prefix padded with zeros
  const [xFraction, yFraction] = [(x[2] ?? '').replace(/0+$/, ''), (y[2] ?? '').replace(/0+$/, '')];
  return xFraction === yFraction ? 0 : xFraction < yFraction ? -1 : 1;
}

/** An amount as a file's cell writes it (Shopify's market price columns): digits, then maybe a decimal part. */
export const isAmountText = (text: string): boolean => /^\d{1,13}(\.\d+)?$/.test(text);

/**
 * A compare-at price below its price, both amount texts (false when either is not one: that cell is refused
 * on its own). The API refuses such a pair; an import leaves the compare-at price out and says so.
 */
export const isBelowPrice = (compareAt: string, price: string): boolean =>
  isAmountText(compareAt) && isAmountText(price) && compareAmounts(compareAt, price) < 0;
