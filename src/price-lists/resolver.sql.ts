import { sql } from 'kysely';
import { type Db, GENERIC_PLAN_MARK } from '../db/index.js';

/**
 * What the resolver reads, in one statement (issue 40: four statements were most of a priced GET's cost): the
 * store's currency, the customer's tags, the items of the products, the store's active lists of the currency
 * and their fixed prices for those products. Amounts travel as NUMERIC's text (strings in the JSON), never as
 * numbers. The rule itself (resolve.ts) picks among the lists; the statement only leaves out what can never
 * apply: other currencies, drafts, and without a customer the lists for tagged customers.
 */

/** A variant, or a simple product (variant null): [productId, variantId, price, comparePrice]. */
export type ItemTuple = [string, string | null, string | null, string | null];
/** [id, currency, status, startsAt, endsAt, customerTags, adjustmentType, adjustmentValue, createdAt] (times as ISO text) */
export type ListTuple = [string, string, string, string | null, string | null, string[], string | null, string | null, string];
/** [listId, itemId, productId, price, comparePrice] */
export type FixedTuple = [string, string, string, string, string | null];

export interface PricingRow {
  /** the currency asked, else the store's */
  currency: string;
  store_currency: string;
  /** null: no customer asked, or none of this id in the store */
  customer_tags: string[] | null;
  items: ItemTuple[];
  lists: ListTuple[];
  fixed: FixedTuple[];
}

export interface PricingQuery {
  productIds: string[];
  currency: string | undefined;
  customerId: string | undefined;
}

/**
 * The items are a simple product itself (it has no variants) or a product with options' variants, in their
 * order: a product with options always has a variant, so the products found are the product ids of the items.
 * Each part is read by its store-first index: products and variants by id, lists by (store_id, currency),
 * fixed prices by (store_id, product_id). Every part is a lookup by key, whatever the values, so the statement
 * runs with its generic plan (src/db/statements/generic-plan.ts): planned with its values it cost 0.78 ms of
 * planning for 0.33 ms of execution (EXPLAIN ANALYZE, one product, 1k seed), generic 0.03 ms, the same plan.
 */
export async function selectPricing(db: Db, storeId: string, { productIds, currency, customerId }: PricingQuery): Promise<PricingRow> {
  const { rows } = await sql<PricingRow>`${sql.raw(GENERIC_PLAN_MARK)} WITH store AS (
      SELECT coalesce((SELECT currency FROM stores WHERE id = ${storeId}), 'USD') AS currency
    ), asked AS (
      SELECT coalesce(${currency ?? null}::text, store.currency) AS currency, store.currency AS store_currency FROM store
    ), items AS (
      SELECT id AS product_id, NULL::text AS variant_id, price::text AS price, compare_price::text AS compare_price, 0 AS position
      FROM products WHERE store_id = ${storeId} AND id = ANY(${productIds}::text[]) AND options = '[]'::jsonb
      UNION ALL
      SELECT product_id, id, price::text, sale_price::text, position
      FROM variants WHERE store_id = ${storeId} AND product_id = ANY(${productIds}::text[])
    ), lists AS (
      SELECT l.id, l.currency, l.status, l.starts_at, l.ends_at, l.customer_tags, l.adjustment_type, l.adjustment_value, l.created_at
      FROM price_lists l, asked
      WHERE l.store_id = ${storeId} AND l.currency = asked.currency AND l.status = 'active'
        AND (${customerId !== undefined}::boolean OR l.customer_tags = '{}')
    )
    SELECT asked.currency, asked.store_currency,
      (SELECT tags FROM customers WHERE store_id = ${storeId} AND id = ${customerId ?? null}::text) AS customer_tags,
      (SELECT coalesce(json_agg(json_build_array(product_id, variant_id, price, compare_price) ORDER BY product_id, position, variant_id), '[]')
        FROM items) AS items,
      (SELECT coalesce(json_agg(json_build_array(id, currency, status, starts_at, ends_at, customer_tags, adjustment_type, adjustment_value::text, created_at)), '[]')
        FROM lists) AS lists,
      (SELECT coalesce(json_agg(json_build_array(p.price_list_id, p.item_id, p.product_id, p.price::text, p.compare_price::text)), '[]')
        FROM price_list_prices p JOIN lists ON lists.id = p.price_list_id
        WHERE p.store_id = ${storeId} AND p.product_id = ANY(${productIds}::text[])) AS fixed
    FROM asked`.execute(db);
  return rows[0];
}
