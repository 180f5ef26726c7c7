import { Decimal } from 'decimal.js';
import type { Db } from '../db/index.js';
import { minorUnits } from '../shared/index.js';
import { selectListsWithPrices, selectPricesOfProducts } from './prices.sql.js';

/**
 * What the Shopify product export writes of price lists (CONTRACT §14): a `Price / <List name>` and
 * `Compare-at price / <List name>` column per list with fixed prices, each cell its amount with the list's
 * currency's decimals (19.5 EUR: `19.50`; JPY: `1200`).
 */

export interface ExportedList {
  id: string;
  name: string;
}

/** An item's fixed prices per list id, amounts as text with the currency's decimals. */
export type ItemMarketPrices = ReadonlyMap<string, { price: string; comparePrice: string | null }>;

export const listsWithPrices = (db: Db, storeId: string): Promise<ExportedList[]> => selectListsWithPrices(db, storeId);

const written = (amount: string, currency: string) => new Decimal(amount).toFixed(minorUnits(currency));

/** The fixed prices of the products' items (variants, simple products), by item id. */
export async function pricesOfItems(db: Db, storeId: string, productIds: string[]): Promise<Map<string, ItemMarketPrices>> {
  const byItem = new Map<string, Map<string, { price: string; comparePrice: string | null }>>();
  for (const row of await selectPricesOfProducts(db, storeId, productIds)) {
    const prices = byItem.get(row.item_id) ?? new Map();
    const comparePrice = row.compare_price === null ? null : written(String(row.compare_price), row.currency);
    prices.set(row.price_list_id, { price: written(String(row.price), row.currency), comparePrice });
    byItem.set(row.item_id, prices);
  }
  return byItem;
}
