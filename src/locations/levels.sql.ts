import { type Selectable, sql } from 'kysely';
import type { DB, Db, Tx } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../reads/index.js';
import type { LEVEL_SORTS } from './levels.schema.js';

/**
 * The SQL of inventory levels. Every write of levels takes its locks in one order — the items' products,
 * their variants, the locations (shared), then the levels, each by id — so two requests naming the same
 * items in any order never deadlock; the totals the levels' trigger then sets (migrations/0114) are rows
 * already locked.
 */

export const LEVEL_COLUMNS = ['level_id', 'item_id', 'product_id', 'variant_id', 'location_id', 'available', 'updated_at'] as const;
export type LevelRow = Pick<Selectable<DB['inventory_levels']>, (typeof LEVEL_COLUMNS)[number]>;

/** One level a write names: its item (the variant, or the simple product) and location. */
export interface LevelKey {
  itemId: string;
  productId: string;
  variantId: string | null;
  locationId: string;
}

export const levelListSpec: ListSpec<typeof LEVEL_SORTS> = {
  path: '/inventory-levels',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at` },
  idColumn: sql`level_id`,
  search: ilikeAny(['item_id', 'location_id']),
};

export function selectLevels(db: Db, storeId: string, filters: { productId?: string; variantId?: string; locationId?: string }) {
  let query = db.selectFrom('inventory_levels').select(LEVEL_COLUMNS).where('store_id', '=', storeId);
  if (filters.productId !== undefined) query = query.where('product_id', '=', filters.productId);
  if (filters.variantId !== undefined) query = query.where('variant_id', '=', filters.variantId);
  if (filters.locationId !== undefined) query = query.where('location_id', '=', filters.locationId);
  return query;
}

/** The store's products among `ids` (whether each is simple: no options), locked in id order. */
export async function lockProducts(trx: Tx, storeId: string, ids: string[]): Promise<Map<string, { simple: boolean }>> {
  const { rows } = await sql<{ id: string; simple: boolean }>`SELECT id, options = '[]'::jsonb AS simple FROM products
    WHERE store_id = ${storeId} AND id = ANY(${ids}::text[]) ORDER BY id FOR NO KEY UPDATE`.execute(trx);
  return new Map(rows.map((row) => [row.id, { simple: row.simple }]));
}

/** The store's variants among `ids` with their products, locked in id order. */
export async function lockVariants(trx: Tx, storeId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await sql<{ id: string; product_id: string }>`SELECT id, product_id FROM variants
    WHERE store_id = ${storeId} AND id = ANY(${ids}::text[]) ORDER BY id FOR NO KEY UPDATE`.execute(trx);
  return new Map(rows.map((row) => [row.id, row.product_id]));
}

/**
 * The store's locations among `ids` with whether each is active, and the default's id; share-locked, so a
 * deactivation waits for the write and the write never lands at a location that stopped counting meanwhile.
 */
export async function shareLocations(trx: Tx, storeId: string, ids: string[]): Promise<{ active: Map<string, boolean>; home: string }> {
  const { rows } = await sql<{ id: string; active: boolean; is_default: boolean }>`SELECT id, active, is_default FROM locations
    WHERE store_id = ${storeId} AND (id = ANY(${ids}::text[]) OR is_default) ORDER BY id FOR SHARE`.execute(trx);
  const named = new Set(ids);
  return {
    active: new Map(rows.filter((row) => named.has(row.id)).map((row) => [row.id, row.active])),
    home: rows.find((row) => row.is_default)?.id ?? '',
  };
}

const keyColumns = (keys: LevelKey[]) =>
  [keys.map((k) => k.itemId), keys.map((k) => k.locationId), keys.map((k) => k.productId), keys.map((k) => k.variantId)] as const;

/**
 * The levels of `keys` (sorted by item and location), created at 0 where missing and locked in that order.
 * A concurrent write creating the same level waits for this one's row, so both then see one row.
 */
export async function lockLevels(trx: Tx, storeId: string, keys: LevelKey[], at: Date): Promise<LevelRow[]> {
  const [items, locations, products, variants] = keyColumns(keys);
  await sql`INSERT INTO inventory_levels (store_id, item_id, location_id, product_id, variant_id, available, created_at, updated_at)
    SELECT ${storeId}, u.item_id, u.location_id, u.product_id, u.variant_id, 0, ${at}, ${at}
    FROM unnest(${items}::text[], ${locations}::text[], ${products}::text[], ${variants}::text[]) AS u(item_id, location_id, product_id, variant_id)
    ON CONFLICT (store_id, item_id, location_id) DO NOTHING`.execute(trx);
  const { rows } =
    await sql<LevelRow>`SELECT level_id, item_id, product_id, variant_id, location_id, available, updated_at FROM inventory_levels
    WHERE store_id = ${storeId} AND (item_id, location_id) IN (SELECT * FROM unnest(${items}::text[], ${locations}::text[]))
    ORDER BY item_id, location_id FOR UPDATE`.execute(trx);
  return rows;
}

/** Sets each named level to its value (the levels' trigger sets the totals); returns the levels that changed. */
export async function writeLevels(
  trx: Tx,
  storeId: string,
  writes: { itemId: string; locationId: string; available: number }[],
  at: Date,
): Promise<LevelRow[]> {
  if (writes.length === 0) return [];
  const { rows } = await sql<LevelRow>`UPDATE inventory_levels AS l SET available = u.available, updated_at = ${at}
    FROM unnest(${writes.map((w) => w.itemId)}::text[], ${writes.map((w) => w.locationId)}::text[], ${writes.map((w) => w.available)}::int[])
      AS u(item_id, location_id, available)
    WHERE l.store_id = ${storeId} AND l.item_id = u.item_id AND l.location_id = u.location_id AND l.available <> u.available
    RETURNING l.level_id, l.item_id, l.product_id, l.variant_id, l.location_id, l.available, l.updated_at`.execute(trx);
  return rows;
}

/**
 * The levels the database moved in this transaction without the app naming them (a total written through a
 * product or variant row sets the default location's level: migrations 0114, 0124), as they are now; the
 * record of them is cleared, so each is read once.
 */
export async function takeMovedLevels(trx: Tx, storeId: string): Promise<LevelRow[]> {
  const { rows } = await sql<LevelRow>`SELECT l.level_id, l.item_id, l.product_id, l.variant_id, l.location_id, l.available, l.updated_at
    FROM storefront_take_moved_levels() AS m JOIN inventory_levels l
      ON l.store_id = ${storeId} AND l.item_id = m.item_id AND l.location_id = m.location_id
    ORDER BY l.item_id, l.location_id`.execute(trx);
  return rows;
}
