import { type Selectable, sql, type Updateable } from 'kysely';
import type { DB, Db, Tx } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../reads/index.js';
import { newId } from '../shared/index.js';
import type { PRICE_LIST_SORTS } from './price-lists.schema.js';

export const PRICE_LIST_COLUMNS = [
  'id',
  'name',
  'currency',
  'status',
  'starts_at',
  'ends_at',
  'customer_tags',
  'adjustment_type',
  'adjustment_value',
  'created_at',
  'updated_at',
] as const;
export type PriceListRow = Pick<Selectable<DB['price_lists']>, (typeof PRICE_LIST_COLUMNS)[number]>;
export type PriceListColumns = Omit<Updateable<DB['price_lists']>, 'store_id' | 'id' | 'created_at' | 'updated_at'>;

export const priceListListSpec: ListSpec<typeof PRICE_LIST_SORTS> = {
  path: '/price-lists',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at`, name: sql`(lower(name) COLLATE "C")` },
  idColumn: sql`id`,
  search: ilikeAny(['name']),
};

export function selectPriceLists(db: Db, storeId: string, filters: { currency?: string; status?: string } = {}) {
  let query = db.selectFrom('price_lists').select(PRICE_LIST_COLUMNS).where('store_id', '=', storeId);
  if (filters.currency !== undefined) query = query.where('currency', '=', filters.currency);
  if (filters.status !== undefined) query = query.where('status', '=', filters.status);
  return query;
}

export function findPriceListRow(db: Db, storeId: string, id: string): Promise<PriceListRow | undefined> {
  return selectPriceLists(db, storeId).where('id', '=', id).executeTakeFirst();
}

/** The list, row locked until the transaction ends (a write of its prices, or of itself). */
export function lockPriceListRow(trx: Tx, storeId: string, id: string): Promise<PriceListRow | undefined> {
  return selectPriceLists(trx, storeId).where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * Serializes the creation of a store's lists (the count against the limit): creations are rare, and one at a
 * time they cannot make 1,001.
 */
export async function lockStorePriceLists(trx: Tx, storeId: string): Promise<number> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`price_lists:${storeId}`}, 0))`.execute(trx);
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM price_lists WHERE store_id = ${storeId}`.execute(trx);
  return rows[0].n;
}

export function insertPriceList(db: Db, storeId: string, values: PriceListColumns & { name: string; currency: string }) {
  const now = new Date();
  return db
    .insertInto('price_lists')
    .values({ ...values, store_id: storeId, id: newId(), created_at: now, updated_at: now })
    .returning(PRICE_LIST_COLUMNS)
    .executeTakeFirstOrThrow();
}

export function updatePriceListRow(db: Db, storeId: string, id: string, changes: PriceListColumns): Promise<PriceListRow> {
  return db
    .updateTable('price_lists')
    .set({ ...changes, updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(PRICE_LIST_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function deletePriceListRow(db: Db, storeId: string, id: string): Promise<void> {
  await db.deleteFrom('price_lists').where('store_id', '=', storeId).where('id', '=', id).execute();
}

/** The most decimals among the list's fixed prices (its currency may not change to one with fewer). */
export async function maxPriceDecimals(db: Db, storeId: string, id: string): Promise<number> {
  const { rows } = await sql<{ n: number | null }>`SELECT max(greatest(scale(price), coalesce(scale(compare_price), 0)))::int AS n
    FROM price_list_prices WHERE store_id = ${storeId} AND price_list_id = ${id}`.execute(db);
  return rows[0]?.n ?? 0;
}

/** The store's list of that name, compared as names are kept unique: case-insensitively. */
export function findPriceListByName(db: Db, storeId: string, name: string): Promise<PriceListRow | undefined> {
  return selectPriceLists(db, storeId).where(sql<boolean>`lower(name) = lower(${name})`).executeTakeFirst();
}
