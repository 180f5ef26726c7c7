import type { Tx } from '../db/index.js';
import type { AfterWork } from '../shared/index.js';
import { storeCurrency } from '../stores/index.js';
import { createPriceList, getPriceList } from './price-lists.service.js';
import { findPriceListByName } from './price-lists.sql.js';
import { setChangedPrices } from './prices.service.js';
import { selectItemsByHandle } from './prices.sql.js';

/**
 * Prices an import line gives per market (Shopify's `Price / <Market>` columns, CONTRACT §14): each market's
 * prices go to the price list named after it, created when the store has none, through the same service
 * functions and with the same events as POST /price-lists and PUT /price-lists/{id}/prices.
 */

/** One item's prices in a market, amounts as the decimal text of the file (already checked: marketCurrencyOf). */
export interface MarketItemPrice {
  market: string;
  /** the variant's SKU; null: the simple product itself */
  sku: string | null;
  price: string;
  comparePrice: string | null;
}

/**
 * The currency of a market's list: the list's own when the store has it, else the one the import names for the
 * market (`marketCurrencies`, keys compared case-insensitively), else the store's.
 */
export async function marketCurrencyOf(trx: Tx, storeId: string, market: string, given: Readonly<Record<string, string>>): Promise<string> {
  const list = await findPriceListByName(trx, storeId, market);
  if (list) return list.currency;
  const named = Object.entries(given).find(([name]) => name.toLowerCase() === market.toLowerCase());
  return named?.[1] ?? (await storeCurrency(trx, storeId));
}

async function listIdOf(trx: Tx, storeId: string, market: string, given: Readonly<Record<string, string>>, afterWork: AfterWork) {
  const list = await findPriceListByName(trx, storeId, market);
  if (list) return list.id;
  const currency = await marketCurrencyOf(trx, storeId, market, given);
  const created = await createPriceList(trx, storeId, { name: market, currency });
  await afterWork.append(trx, storeId, { type: 'priceList.created', data: created });
  return created.id;
}

/**
 * Sets the items of the product with `handle` in their markets' lists (each list: one PUT's write, and one
 * priceList.updated when a price of it changed: a re-import of the same file appends none).
 */
export async function setMarketPrices(
  trx: Tx,
  storeId: string,
  handle: string,
  items: readonly MarketItemPrice[],
  given: Readonly<Record<string, string>>,
  afterWork: AfterWork,
): Promise<void> {
  const product = await selectItemsByHandle(trx, storeId, handle);
  if (!product) return;
  const byMarket = new Map<string, MarketItemPrice[]>();
  for (const item of items) byMarket.set(item.market.toLowerCase(), [...(byMarket.get(item.market.toLowerCase()) ?? []), item]);
  for (const group of byMarket.values()) {
    const listId = await listIdOf(trx, storeId, group[0].market, given, afterWork);
    const put = group.flatMap((item) => {
      const variantId = item.sku === null ? undefined : product.variants.get(item.sku);
      if (item.sku !== null && variantId === undefined) return [];
      // the text was checked to be a decimal within the currency's minor unit: its Number spells it exactly
      const amounts = { price: Number(item.price), ...(item.comparePrice === null ? {} : { comparePrice: Number(item.comparePrice) }) };
      return [{ productId: product.productId, ...(variantId ? { variantId } : {}), ...amounts }];
    });
    if (put.length === 0 || !(await setChangedPrices(trx, storeId, listId, { items: put }))) continue;
    await afterWork.append(trx, storeId, { type: 'priceList.updated', data: await getPriceList(trx, storeId, listId) });
  }
}
