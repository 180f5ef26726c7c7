import { type Selectable, sql } from 'kysely';
import type { DB, Db, Tx } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../reads/index.js';
import { newId } from '../shared/index.js';
import type { LOCATION_SORTS } from './locations.schema.js';

export const COLUMNS = ['id', 'name', 'code', 'address', 'active', 'is_default', 'created_at', 'updated_at'] as const;
export type LocationRow = Pick<Selectable<DB['locations']>, (typeof COLUMNS)[number]>;
export type LocationColumns = Partial<Pick<LocationRow, 'name' | 'code' | 'address' | 'active' | 'is_default'>>;

export const listSpec: ListSpec<typeof LOCATION_SORTS> = {
  path: '/locations',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at`, name: sql`(lower(name) COLLATE "C")` },
  idColumn: sql`id`,
  search: ilikeAny(['name', 'code']),
};

export function selectLocations(db: Db, storeId: string) {
  return db.selectFrom('locations').select(COLUMNS).where('store_id', '=', storeId);
}

export function findLocationRow(db: Db, storeId: string, id: string): Promise<LocationRow | undefined> {
  return selectLocations(db, storeId).where('id', '=', id).executeTakeFirst();
}

/**
 * Serializes the writes of one store's locations (the count against the limit, moving the default, a
 * deactivation's new totals): they are rare, and one at a time they cannot leave two defaults or 101 rows.
 */
export async function lockStoreLocations(trx: Tx, storeId: string): Promise<number> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`locations:${storeId}`}, 0))`.execute(trx);
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM locations WHERE store_id = ${storeId}`.execute(trx);
  return rows[0].n;
}

export function insertLocation(db: Db, storeId: string, values: LocationColumns & { name: string }): Promise<LocationRow> {
  const now = new Date();
  return db
    .insertInto('locations')
    .values({ store_id: storeId, id: newId(), ...values, created_at: now, updated_at: now })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export function updateLocationRow(db: Db, storeId: string, id: string, changes: LocationColumns): Promise<LocationRow> {
  return db
    .updateTable('locations')
    .set({ ...changes, updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The store's default location stops being it (the caller then makes another the default, in the same transaction). */
export async function clearDefaultLocation(db: Db, storeId: string): Promise<void> {
  await db
    .updateTable('locations')
    .set({ is_default: false, updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('is_default', '=', true)
    .execute();
}

/** Whether any level at the location is above zero (such a location is not deleted). */
export async function locationHoldsStock(db: Db, storeId: string, id: string): Promise<boolean> {
  const { rows } = await sql`SELECT 1 FROM inventory_levels
    WHERE store_id = ${storeId} AND location_id = ${id} AND available > 0 LIMIT 1`.execute(db);
  return rows.length > 0;
}

/**
 * The totals (variants' stock, simple products' totalStock) of every item with a non-zero level at the
 * location, set again to the sum over the store's active locations (after the location's `active` changed,
 * or before its negative levels are deleted with it). Returns the products whose totals it looked at.
 */
export async function resyncLocationItems(trx: Tx, storeId: string, id: string): Promise<string[]> {
  const { rows } = await sql<{ product_id: string }>`SELECT product_id,
      storefront_sync_item_stock(store_id, product_id, variant_id) AS synced
    FROM (SELECT store_id, product_id, variant_id FROM inventory_levels
      WHERE store_id = ${storeId} AND location_id = ${id} AND available <> 0 ORDER BY item_id) AS items`.execute(trx);
  return [...new Set(rows.map((row) => row.product_id))];
}

/**
 * Deletes the location and its levels (0 or below by then): those below 0 are set to 0 first, so the totals
 * that counted them follow (the levels' trigger). Returns the products of those levels.
 */
export async function deleteLocationRow(trx: Tx, storeId: string, id: string): Promise<string[]> {
  const { rows } = await sql<{ product_id: string }>`UPDATE inventory_levels SET available = 0, updated_at = ${new Date()}
    WHERE store_id = ${storeId} AND location_id = ${id} AND available <> 0 RETURNING product_id`.execute(trx);
  await trx.deleteFrom('locations').where('store_id', '=', storeId).where('id', '=', id).execute();
  return [...new Set(rows.map((row) => row.product_id))];
}
