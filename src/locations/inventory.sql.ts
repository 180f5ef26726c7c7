import { sql } from 'kysely';
import type { Db, Tx } from '../db/index.js';

/**
 * The SQL of inventory files (import and export): items found as a file names them (a SKU, or a product's
 * handle and a variant's option values), locations by name, and the rows an export writes per level.
 */

/** An item a file names: a variant (variant_id set), or a simple product (variant_id null). */
export interface ItemRow {
  product_id: string;
  variant_id: string | null;
}

/** The store's items with this SKU (variants, and simple products' own), at most `limit`. */
export async function itemsBySku(db: Db | Tx, storeId: string, sku: string, limit = 2): Promise<ItemRow[]> {
  const { rows } =
    await sql<ItemRow>`(SELECT product_id, id AS variant_id FROM variants WHERE store_id = ${storeId} AND sku = ${sku} LIMIT ${limit})
    UNION ALL (SELECT id, NULL FROM products WHERE store_id = ${storeId} AND sku = ${sku} AND options = '[]'::jsonb LIMIT ${limit})
    LIMIT ${limit}`.execute(db);
  return rows;
}

/** A product by handle: its id, whether it is simple, and its variants' option values. */
export interface HandleRow {
  id: string;
  simple: boolean;
  variants: { id: string; attributes: Record<string, string> }[];
}

export async function productByHandle(db: Db | Tx, storeId: string, handle: string): Promise<HandleRow | undefined> {
  const { rows } = await sql<HandleRow>`SELECT p.id, p.options = '[]'::jsonb AS simple,
      coalesce((SELECT jsonb_agg(jsonb_build_object('id', v.id, 'attributes', v.attributes)) FROM variants v
        WHERE v.store_id = p.store_id AND v.product_id = p.id), '[]'::jsonb) AS variants
    FROM products p WHERE p.store_id = ${storeId} AND p.handle = ${handle}`.execute(db);
  return rows[0];
}

export interface LocationRef {
  id: string;
  name: string;
  active: boolean;
}

/** The store's location of this name (compared case-insensitively, as names are unique). */
export async function locationByName(db: Db | Tx, storeId: string, name: string): Promise<LocationRef | undefined> {
  const { rows } = await sql<LocationRef>`SELECT id, name, active FROM locations
    WHERE store_id = ${storeId} AND lower(name) = lower(${name})`.execute(db);
  return rows[0];
}

/** The item's level at the location, if it has one (a missing level is 0 available). */
export async function levelAt(db: Db | Tx, storeId: string, itemId: string, locationId: string): Promise<number | undefined> {
  const { rows } = await sql<{ available: number }>`SELECT available FROM inventory_levels
    WHERE store_id = ${storeId} AND item_id = ${itemId} AND location_id = ${locationId}`.execute(db);
  return rows[0]?.available;
}
