import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';

/**
 * The SQL of stock moves (custom checkouts): variants' stock, and simple products' totalStock. A checkout's
 * stock is taken by one guarded UPDATE (`stock + delta >= 0`): the row lock it takes is the only one, held
 * from that statement to COMMIT, and a concurrent checkout of the same variant (or simple product) waits
 * for it and then re-checks the guard against the new stock (no oversell). A move of several variants first
 * locks them in id order, the one order every such move uses, so two carts naming the same variants in
 * opposite orders never deadlock; simple products likewise, after the variants.
 */

/** A variant's stock, or a simple product's (`simple`: its id is the product's, its stock the totalStock, null as 0). */
export interface StockRow {
  id: string;
  product_id: string;
  sku: string | null;
  stock: number;
  simple?: boolean;
}

/**
 * The store's variants of `productIds` whose SKU is among `skus`, and its simple products (no options, so no
 * variants) among `productIds` whose own SKU is: a checkout takes their totalStock. One round trip; not
 * locked (the guarded UPDATE decides). The caller keeps the rows of the (product, SKU) pairs it asked for.
 */
export async function findStockBySku(db: Db, storeId: string, productIds: string[], skus: string[]): Promise<StockRow[]> {
  const { rows } = await sql<StockRow>`SELECT id, product_id, sku, stock, false AS simple FROM variants
      WHERE store_id = ${storeId} AND product_id = ANY(${productIds}::text[]) AND sku = ANY(${skus}::text[])
    UNION ALL
    SELECT id, id, sku, coalesce(total_stock, 0), true FROM products
      WHERE store_id = ${storeId} AND id = ANY(${productIds}::text[]) AND sku = ANY(${skus}::text[]) AND options = '[]'::jsonb`.execute(db);
  return rows;
}

/** The store's variants among `ids` that still exist, with their stock, locked in id order. */
export async function lockVariantsById(trx: Tx, storeId: string, ids: string[]): Promise<StockRow[]> {
  const { rows } = await sql<StockRow>`SELECT id, product_id, sku, stock FROM variants
    WHERE store_id = ${storeId} AND id = ANY(${ids}::text[]) ORDER BY id FOR UPDATE`.execute(trx);
  return rows;
}

/**
 * Adds `deltas[i]` (negative: takes) to the stock of variant `ids[i]` where that leaves it at zero or
 * more (the guard; the CHECK constraint says so too), and moves the changed variants' and their
 * products' updatedAt, as a variant PATCH does, so a sync job sees the change. One statement. Returns the
 * ids of the variants that changed.
 */
export async function addStock(trx: Tx, storeId: string, ids: string[], deltas: number[], at: Date): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`WITH changed AS (
      UPDATE variants AS v SET stock = v.stock + u.delta, updated_at = ${at}
      FROM unnest(${ids}::text[], ${deltas}::int[]) AS u(id, delta)
      WHERE v.store_id = ${storeId} AND v.id = u.id AND v.stock + u.delta >= 0
      RETURNING v.id, v.product_id
    ), touched AS (
      UPDATE products SET updated_at = ${at} WHERE store_id = ${storeId} AND id IN (SELECT product_id FROM changed)
    )
    SELECT id FROM changed`.execute(trx);
  return rows.map((row) => row.id);
}

/** The store's products among `ids` that still exist, with their totalStock (null as 0), locked in id order. */
export async function lockProductStockById(trx: Tx, storeId: string, ids: string[]): Promise<StockRow[]> {
  const { rows } = await sql<StockRow>`SELECT id, id AS product_id, sku, coalesce(total_stock, 0) AS stock, true AS simple FROM products
    WHERE store_id = ${storeId} AND id = ANY(${ids}::text[]) ORDER BY id FOR UPDATE`.execute(trx);
  return rows;
}

/**
 * addStock for simple products: `deltas[i]` added to the totalStock (null counts as 0) of product `ids[i]`
 * where that leaves it at zero or more, and its updatedAt moved. One statement; returns the changed ids.
 */
export async function addProductStock(trx: Tx, storeId: string, ids: string[], deltas: number[], at: Date): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`UPDATE products AS p SET total_stock = coalesce(p.total_stock, 0) + u.delta, updated_at = ${at}
    FROM unnest(${ids}::text[], ${deltas}::int[]) AS u(id, delta)
    WHERE p.store_id = ${storeId} AND p.id = u.id AND coalesce(p.total_stock, 0) + u.delta >= 0
    RETURNING p.id`.execute(trx);
  return rows.map((row) => row.id);
}
