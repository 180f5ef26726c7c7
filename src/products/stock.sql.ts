import { sql } from 'kysely';
import type { Tx } from '../db/index.js';

/**
 * The SQL of stock moves (custom checkouts). Every stock move locks its variants FOR UPDATE in id order
 * before changing them: one order for every checkout and every restock, so two of them never wait for
 * each other in opposite orders (no deadlock) and each sees the other's result (no oversell).
 */

export interface StockRow {
  id: string;
  product_id: string;
  sku: string | null;
  stock: number;
}

/**
 * The store's variants of `productIds` whose SKU is among `skus`, locked in id order. The caller keeps
 * the rows of the (product, SKU) pairs it asked for; a stray row (another pair's SKU on one of the
 * products) is locked too, which only makes a lock wider, never changes a result.
 */
export async function lockVariantsBySku(trx: Tx, storeId: string, productIds: string[], skus: string[]): Promise<StockRow[]> {
  const { rows } = await sql<StockRow>`SELECT id, product_id, sku, stock FROM variants
    WHERE store_id = ${storeId} AND product_id = ANY(${productIds}::text[]) AND sku = ANY(${skus}::text[])
    ORDER BY id FOR UPDATE`.execute(trx);
  return rows;
}

/** The store's variants among `ids` that still exist, locked in id order. */
export async function lockVariantsById(trx: Tx, storeId: string, ids: string[]): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`SELECT id FROM variants
    WHERE store_id = ${storeId} AND id = ANY(${ids}::text[]) ORDER BY id FOR UPDATE`.execute(trx);
  return rows.map((row) => row.id);
}

/**
 * Adds `deltas[i]` (negative: takes) to the stock of variant `ids[i]`, never below zero (the guard and
 * the CHECK constraint both say so), and moves the variants' and their products' updatedAt, as a variant
 * PATCH does, so a sync job sees the change. The variants must be locked already. Returns how many
 * variants changed.
 */
export async function addStock(trx: Tx, storeId: string, ids: string[], deltas: number[], productIds: string[], at: Date) {
  const { numAffectedRows } = await sql`UPDATE variants AS v SET stock = v.stock + u.delta, updated_at = ${at}
    FROM unnest(${ids}::text[], ${deltas}::int[]) AS u(id, delta)
    WHERE v.store_id = ${storeId} AND v.id = u.id AND v.stock + u.delta >= 0`.execute(trx);
  // Sorted ids: an index scan takes the product rows in this order, the same in every transaction.
  await sql`UPDATE products SET updated_at = ${at}
    WHERE store_id = ${storeId} AND id = ANY(${[...new Set(productIds)].sort()}::text[])`.execute(trx);
  return Number(numAffectedRows ?? 0);
}
