import { setSavepoint, type Tx } from '../db/index.js';
import { type AppError, invalidField, toAppError } from '../errors.js';
import type { MarketCell, MarketPrice } from '../platforms/index.js';
import { type MarketItemPrice, marketCurrencyOf, setMarketPrices } from '../price-lists/index.js';
import { amountDetail, type ImportLineOptions, isAmountText, isBelowPrice, isCurrencyCode } from '../shared/index.js';

/**
 * Shopify's market price columns in a product import (`Price / <Market>`, `Compare-at price / <Market>`;
 * CONTRACT §14): before its product is applied, a line's cells are checked against the currency of the
 * market's list (a bad cell refuses the line, its error naming the cell); once the product is written, they
 * are set in the lists (src/price-lists/prices.import.ts). A dry run does both, then rolls the batch back.
 */

/** `marketCurrencies` of POST /imports, at most this long. */
export const MARKET_CURRENCIES_MAX_LENGTH = 2000;

/** `International:EUR,UK:GBP` as {International: 'EUR', UK: 'GBP'}; a 400 naming `marketCurrencies` otherwise. */
export function parseMarketCurrencies(text: string | undefined): Record<string, string> {
  const currencies: Record<string, string> = {};
  if (text === undefined) return currencies;
  const refuse = (message: string) => invalidField('marketCurrencies', message, 'query');
  for (const pair of text.split(',')) {
    const at = pair.lastIndexOf(':');
    const market = pair.slice(0, Math.max(at, 0)).trim();
    const code = pair.slice(at + 1).trim();
    if (at < 0 || market === '') throw refuse('must be market:CODE pairs separated by commas, as International:EUR,UK:GBP');
    if (!isCurrencyCode(code)) throw refuse(`gives ${market} "${code}": not an ISO 4217 currency code, as EUR or GBP`);
    if (Object.keys(currencies).some((name) => name.toLowerCase() === market.toLowerCase())) throw refuse(`names ${market} twice`);
    currencies[market] = code;
  }
  return currencies;
}

/** A refused cell: the error and the cell it names. */
export interface MarketCellError {
  error: AppError;
  cell: MarketCell;
}

function cellError(cell: MarketCell, currency: string): MarketCellError | null {
  const refuse = (message: string) => ({ error: invalidField(cell.column, message), cell });
  if (cell.text === '') return refuse('is empty while the market has a compare-at price');
  if (!isAmountText(cell.text)) return refuse(`must be an amount in ${currency}, as 19.99`);
  const [detail] = amountDetail(cell.text, currency, cell.column);
  return detail ? refuse(detail.message) : null;
}

/**
 * A line's market prices checked (each amount exact to its list's currency), as the items to set; or the error
 * of its first bad cell. A compare-at price below the price (Shopify shows no sale then; the API refuses it) is
 * left out: the layout that read it warned of it (VALUE_CHANGED, product-variants.ts), by the same rule.
 */
export async function checkMarketPrices(
  trx: Tx,
  storeId: string,
  prices: readonly MarketPrice[],
  options: ImportLineOptions,
): Promise<MarketItemPrice[] | MarketCellError> {
  const currencies = new Map<string, string>();
  const items: MarketItemPrice[] = [];
  for (const { market, sku, price, compareAt } of prices) {
    const key = market.toLowerCase();
    const currency = currencies.get(key) ?? (await marketCurrencyOf(trx, storeId, market, options.marketCurrencies ?? {}));
    currencies.set(key, currency);
    const bad = cellError(price, currency) ?? (compareAt && cellError(compareAt, currency));
    if (bad) return bad;
    const keptCompare = compareAt && !isBelowPrice(compareAt.text, price.text) ? compareAt.text : null;
    items.push({ market, sku, price: price.text, comparePrice: keptCompare });
  }
  return items;
}

/** Sets a written product's market prices under a savepoint: null, or the error that refused them. */
export async function applyMarketPrices(
  trx: Tx,
  storeId: string,
  handle: string,
  items: readonly MarketItemPrice[],
  options: ImportLineOptions,
): Promise<AppError | null> {
  const point = await setSavepoint(trx, 'import_market_prices', [options.afterWork]);
  try {
    await setMarketPrices(trx, storeId, handle, items, options.marketCurrencies ?? {}, options.afterWork);
    await point.release();
    return null;
  } catch (error) {
    const appError = toAppError(error as Parameters<typeof toAppError>[0]);
    if (appError.status === 503) throw error;
    await point.rollBack();
    return appError;
  }
}
