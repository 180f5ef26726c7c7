import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/** What the resolver reads: the rows of resolve.ts, as the database has them (amounts as NUMERIC's text). */

export interface ItemRow {
  product_id: string;
  variant_id: string | null;
  price: string | null;
  compare_price: string | null;
}

/**
 * The priced items of the store's products among `ids`: a simple product itself (it has no variants), a
 * product with options its variants, in their order. A product with options always has a variant, so the
 * products found are the product ids of these rows.
 */
export async function selectPricedItems(db: Db, storeId: string, ids: string[]): Promise<ItemRow[]> {
  const { rows } = await sql<ItemRow>`SELECT id AS product_id, NULL::text AS variant_id, price::text AS price,
      compare_price::text AS compare_price, 0 AS position
    FROM products WHERE store_id = ${storeId} AND id = ANY(${ids}::text[]) AND options = '[]'::jsonb
    UNION ALL
    SELECT product_id, id, price::text, sale_price::text, position
    FROM variants WHERE store_id = ${storeId} AND product_id = ANY(${ids}::text[])
    ORDER BY product_id, position, variant_id`.execute(db);
  return rows;
}

export interface ListRow {
  id: string;
  currency: string;
  status: string;
  starts_at: Date | string | null;
  ends_at: Date | string | null;
  customer_tags: string[];
  adjustment_type: string | null;
  adjustment_value: string | null;
  created_at: Date | string;
}

/** The store's active lists in `currency` (at most 1,000 per store); the rule itself picks among them. */
export async function selectActiveLists(db: Db, storeId: string, currency: string): Promise<ListRow[]> {
  const { rows } = await sql<ListRow>`SELECT id, currency, status, starts_at, ends_at, customer_tags, adjustment_type,
      adjustment_value::text AS adjustment_value, created_at
    FROM price_lists WHERE store_id = ${storeId} AND currency = ${currency} AND status = 'active'`.execute(db);
  return rows;
}

export interface FixedRow {
  price_list_id: string;
  item_id: string;
  price: string;
  compare_price: string | null;
}

/** The fixed prices of the products among `productIds` in the lists among `listIds`. */
export async function selectFixedPrices(db: Db, storeId: string, listIds: string[], productIds: string[]): Promise<FixedRow[]> {
  if (listIds.length === 0) return [];
  const { rows } = await sql<FixedRow>`SELECT price_list_id, item_id, price::text AS price, compare_price::text AS compare_price
    FROM price_list_prices
    WHERE store_id = ${storeId} AND product_id = ANY(${productIds}::text[]) AND price_list_id = ANY(${listIds}::text[])`.execute(db);
  return rows;
}

/** The customer's tags; undefined when the store has no such customer. */
export async function selectCustomerTags(db: Db, storeId: string, id: string): Promise<string[] | undefined> {
  const row = await db.selectFrom('customers').select('tags').where('store_id', '=', storeId).where('id', '=', id).executeTakeFirst();
  return row?.tags;
}
