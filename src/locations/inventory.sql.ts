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

/** The store's items (variants, and simple products' own) whose SKU is among `skus`, with it: a batch's lookup. */
export async function itemsBySkus(db: Db | Tx, storeId: string, skus: string[]): Promise<(ItemRow & { sku: string })[]> {
  if (skus.length === 0) return [];
  const { rows } = await sql<ItemRow & { sku: string }>`SELECT sku, product_id, id AS variant_id FROM variants
      WHERE store_id = ${storeId} AND sku = ANY(${skus}::text[])
    UNION ALL SELECT sku, id, NULL FROM products WHERE store_id = ${storeId} AND sku = ANY(${skus}::text[]) AND options = '[]'::jsonb`.execute(
    db,
  );
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

/** The store's products among `handles`, with their handles (productByHandle for a batch). */
export async function productsByHandles(db: Db | Tx, storeId: string, handles: string[]): Promise<(HandleRow & { handle: string })[]> {
  if (handles.length === 0) return [];
  const { rows } = await sql<HandleRow & { handle: string }>`SELECT p.handle, p.id, p.options = '[]'::jsonb AS simple,
      coalesce((SELECT jsonb_agg(jsonb_build_object('id', v.id, 'attributes', v.attributes)) FROM variants v
        WHERE v.store_id = p.store_id AND v.product_id = p.id), '[]'::jsonb) AS variants
    FROM products p WHERE p.store_id = ${storeId} AND p.handle = ANY(${handles}::text[])`.execute(db);
  return rows;
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

/** The store's locations named by `names` (compared as locationByName compares), keyed by the name as given. */
export async function locationsByNames(db: Db | Tx, storeId: string, names: string[]): Promise<Map<string, LocationRef>> {
  if (names.length === 0) return new Map();
  const { rows } = await sql<LocationRef & { wanted: string }>`SELECT u.wanted, c.id, c.name, c.active
    FROM unnest(${names}::text[]) AS u(wanted) JOIN locations c ON c.store_id = ${storeId} AND lower(c.name) = lower(u.wanted)`.execute(db);
  return new Map(rows.map(({ wanted, ...location }) => [wanted, location]));
}

/** The item's level at the location, if it has one (a missing level is 0 available). */
export async function levelAt(db: Db | Tx, storeId: string, itemId: string, locationId: string): Promise<number | undefined> {
  const { rows } = await sql<{ available: number }>`SELECT available FROM inventory_levels
    WHERE store_id = ${storeId} AND item_id = ${itemId} AND location_id = ${locationId}`.execute(db);
  return rows[0]?.available;
}

/** The levels that exist among (item, location) pairs: `available` keyed by `itemId/locationId`. */
export async function levelsAt(
  db: Db | Tx,
  storeId: string,
  pairs: { itemId: string; locationId: string }[],
): Promise<Map<string, number>> {
  if (pairs.length === 0) return new Map();
  const { rows } = await sql<{ item_id: string; location_id: string; available: number }>`SELECT l.item_id, l.location_id, l.available
    FROM unnest(${pairs.map((pair) => pair.itemId)}::text[], ${pairs.map((pair) => pair.locationId)}::text[]) AS u(item_id, location_id)
    JOIN inventory_levels l ON l.store_id = ${storeId} AND l.item_id = u.item_id AND l.location_id = u.location_id`.execute(db);
  return new Map(rows.map((row) => [`${row.item_id}/${row.location_id}`, row.available]));
}

/** A level as an inventory file writes it: the item by handle, option values and SKU, the location by name. */
export interface InventoryRecord {
  handle: string;
  title: string;
  /** the variant's option values in the product's option order; [] for a simple product */
  options: { name: string; value: string }[];
  sku: string | null;
  location: string;
  available: number;
}

interface RecordRow {
  handle: string;
  title: string;
  product_options: { name: string }[];
  attributes: Record<string, string> | null;
  sku: string | null;
  location: string;
  available: number;
}

/** The levels among `ids` (level ids), in id order, as inventory files write them (the export's batch read). */
export async function getInventoryRecordsByIds(db: Db | Tx, storeId: string, ids: string[]): Promise<InventoryRecord[]> {
  const { rows } = await sql<RecordRow>`SELECT p.handle, p.title, p.options AS product_options, v.attributes,
      CASE WHEN l.variant_id IS NULL THEN p.sku ELSE v.sku END AS sku, c.name AS location, l.available
    FROM inventory_levels l
    JOIN products p ON p.store_id = l.store_id AND p.id = l.product_id
    LEFT JOIN variants v ON v.store_id = l.store_id AND v.id = l.variant_id
    JOIN locations c ON c.store_id = l.store_id AND c.id = l.location_id
    WHERE l.store_id = ${storeId} AND l.level_id = ANY(${ids}::text[])
    ORDER BY l.level_id`.execute(db);
  return rows.map(({ product_options, attributes, ...row }) => ({
    ...row,
    options: attributes ? product_options.map(({ name }) => ({ name, value: attributes[name] ?? '' })) : [],
  }));
}
