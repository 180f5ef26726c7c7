import { type Selectable, sql } from 'kysely';
import type { DB, Db, Tx } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../reads/index.js';
import type { PRICE_SORTS } from './prices.schema.js';

export const PRICE_COLUMNS = ['item_id', 'product_id', 'variant_id', 'price', 'compare_price', 'updated_at'] as const;
export type PriceRow = Pick<Selectable<DB['price_list_prices']>, (typeof PRICE_COLUMNS)[number]>;

/** One fixed price a write names: the item (a variant, or a simple product) and its amounts as decimal strings. */
export interface PriceValues {
  itemId: string;
  productId: string;
  variantId: string | null;
  price: string;
  comparePrice: string | null;
}

/** GET /price-lists/{id}/prices: one list's prices, keyed by item within it. */
export const priceListSpec: ListSpec<typeof PRICE_SORTS> = {
  path: '/price-lists/{id}/prices',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at` },
  idColumn: sql`item_id`,
  search: ilikeAny(['item_id', 'product_id']),
};

export function selectListPrices(db: Db, storeId: string, listId: string, filters: { productId?: string } = {}) {
  let query = db.selectFrom('price_list_prices').select(PRICE_COLUMNS).where('store_id', '=', storeId).where('price_list_id', '=', listId);
  if (filters.productId !== undefined) query = query.where('product_id', '=', filters.productId);
  return query;
}

/** The store's products among `ids`, with whether each is simple (no options). */
export async function selectProductKinds(db: Db, storeId: string, ids: string[]): Promise<Map<string, { simple: boolean }>> {
  const { rows } = await sql<{ id: string; simple: boolean }>`SELECT id, options = '[]'::jsonb AS simple FROM products
    WHERE store_id = ${storeId} AND id = ANY(${ids}::text[])`.execute(db);
  return new Map(rows.map((row) => [row.id, { simple: row.simple }]));
}

/** The store's variants among `ids`, with their products. */
export async function selectVariantProducts(db: Db, storeId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: string; product_id: string }>`SELECT id, product_id FROM variants
    WHERE store_id = ${storeId} AND id = ANY(${ids}::text[])`.execute(db);
  return new Map(rows.map((row) => [row.id, row.product_id]));
}

/**
 * Sets the fixed prices (inserted, or replaced where they differ: an unchanged one keeps its updatedAt), in
 * item order so that two writes of one list's items never wait on each other in a cycle (the list's row lock
 * already orders them). Numbers travel as text into NUMERIC: no float in between. Answers how many it
 * inserted or replaced (RETURNING gives no row for an unchanged one: its DO UPDATE's WHERE is false).
 */
export async function upsertPrices(trx: Tx, storeId: string, listId: string, values: PriceValues[], at: Date): Promise<number> {
  const sorted = [...values].sort((a, b) => (a.itemId < b.itemId ? -1 : 1));
  const column = <K extends keyof PriceValues>(key: K) => sorted.map((value) => value[key]);
  const { rows } = await sql`INSERT INTO price_list_prices AS p
      (store_id, price_list_id, item_id, product_id, variant_id, price, compare_price, created_at, updated_at)
    SELECT ${storeId}, ${listId}, u.item_id, u.product_id, u.variant_id, u.price::numeric, u.compare_price::numeric, ${at}, ${at}
    FROM unnest(${column('itemId')}::text[], ${column('productId')}::text[], ${column('variantId')}::text[],
      ${column('price')}::text[], ${column('comparePrice')}::text[]) AS u(item_id, product_id, variant_id, price, compare_price)
    ON CONFLICT (store_id, price_list_id, item_id) DO UPDATE
      SET price = EXCLUDED.price, compare_price = EXCLUDED.compare_price, updated_at = EXCLUDED.updated_at
      WHERE (p.price, p.compare_price) IS DISTINCT FROM (EXCLUDED.price, EXCLUDED.compare_price)
    RETURNING p.item_id`.execute(trx);
  return rows.length;
}

export async function deletePrices(trx: Tx, storeId: string, listId: string, itemIds: string[]): Promise<number> {
  const result = await trx
    .deleteFrom('price_list_prices')
    .where('store_id', '=', storeId)
    .where('price_list_id', '=', listId)
    .where('item_id', 'in', itemIds)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function selectPricesOfItems(db: Db, storeId: string, listId: string, itemIds: string[]): Promise<PriceRow[]> {
  return selectListPrices(db, storeId, listId).where('item_id', 'in', itemIds).execute();
}

/** A change of its prices is a change of the list: its updatedAt moves (sync by updatedSince finds it). */
export async function touchPriceList(trx: Tx, storeId: string, listId: string, at: Date): Promise<void> {
  await trx.updateTable('price_lists').set({ updated_at: at }).where('store_id', '=', storeId).where('id', '=', listId).execute();
}

/** A fixed price of one of a product's items in one list, with the list's name and currency (the console's page). */
export interface ProductListPriceRow {
  item_id: string;
  list_name: string;
  currency: string;
  price: string;
  compare_price: string | null;
}

/**
 * The fixed prices of one product's items across the store's lists, in one statement (price_list_prices_product_idx,
 * then the lists by their key), by list name: at most `limit` rows.
 */
export async function selectProductListPrices(db: Db, storeId: string, productId: string, limit: number): Promise<ProductListPriceRow[]> {
  const { rows } = await sql<ProductListPriceRow>`SELECT p.item_id, l.name AS list_name, l.currency, p.price::text AS price,
      p.compare_price::text AS compare_price
    FROM price_list_prices p JOIN price_lists l ON l.store_id = p.store_id AND l.id = p.price_list_id
    WHERE p.store_id = ${storeId} AND p.product_id = ${productId}
    ORDER BY lower(l.name), l.id, p.item_id LIMIT ${limit}`.execute(db);
  return rows;
}

/** A product of the store by handle, with its variants' ids by SKU (an import line names them so). */
export async function selectItemsByHandle(
  db: Db,
  storeId: string,
  handle: string,
): Promise<{ productId: string; variants: Map<string, string> } | undefined> {
  const product = await db
    .selectFrom('products')
    .select('id')
    .where('store_id', '=', storeId)
    .where('handle', '=', handle)
    .executeTakeFirst();
  if (!product) return undefined;
  const rows = await db
    .selectFrom('variants')
    .select(['id', 'sku'])
    .where('store_id', '=', storeId)
    .where('product_id', '=', product.id)
    .execute();
  return { productId: product.id, variants: new Map(rows.flatMap((row) => (row.sku === null ? [] : [[row.sku, row.id] as const]))) };
}

/** The store's lists that have fixed prices, oldest first (the Shopify export's market columns). */
export function selectListsWithPrices(db: Db, storeId: string): Promise<{ id: string; name: string; currency: string }[]> {
  return db
    .selectFrom('price_lists as l')
    .select(['l.id', 'l.name', 'l.currency'])
    .where('l.store_id', '=', storeId)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('price_list_prices as p')
          .select(sql`1`.as('one'))
          .whereRef('p.store_id', '=', 'l.store_id')
          .whereRef('p.price_list_id', '=', 'l.id'),
      ),
    )
    .orderBy('l.created_at')
    .orderBy('l.id')
    .execute();
}

/** The fixed prices of some products' items in every list, with each list's currency. */
export function selectPricesOfProducts(db: Db, storeId: string, productIds: string[]) {
  return db
    .selectFrom('price_list_prices as p')
    .innerJoin('price_lists as l', (join) => join.onRef('l.store_id', '=', 'p.store_id').onRef('l.id', '=', 'p.price_list_id'))
    .select(['p.price_list_id', 'p.item_id', 'p.price', 'p.compare_price', 'l.currency'])
    .where('p.store_id', '=', storeId)
    .where('p.product_id', 'in', productIds.length > 0 ? productIds : [''])
    .execute();
}
