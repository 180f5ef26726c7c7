import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/**
 * The SQL of a checkout's stock lookup: the variants and simple products its lines name by SKU. Taking and
 * returning stock are level writes (src/locations: the levels locked, in one order, then changed).
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
