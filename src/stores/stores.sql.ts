import type { Insertable } from 'kysely';
import type { DB, Db } from '../db/index.js';

export interface StoreRecord {
  id: string;
  slug: string;
  name: string;
  currency: string;
}

export async function insertStore(db: Db, store: Insertable<DB['stores']>): Promise<void> {
  await db.insertInto('stores').values(store).execute();
}

export async function insertAdmin(db: Db, admin: Insertable<DB['admins']>): Promise<void> {
  await db.insertInto('admins').values(admin).execute();
}

export function selectStoreBySlug(db: Db, slug: string): Promise<StoreRecord | undefined> {
  return db.selectFrom('stores').select(['id', 'slug', 'name', 'currency']).where('slug', '=', slug).executeTakeFirst();
}

/** Sets the given columns (undefined ones stay); undefined when no store has the slug. */
export function updateStoreRow(db: Db, slug: string, changes: { name?: string; currency?: string }): Promise<StoreRecord | undefined> {
  const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  if (Object.keys(set).length === 0) return selectStoreBySlug(db, slug);
  return db.updateTable('stores').set(set).where('slug', '=', slug).returning(['id', 'slug', 'name', 'currency']).executeTakeFirst();
}

export async function selectStoreCurrency(db: Db, storeId: string): Promise<string | undefined> {
  const row = await db.selectFrom('stores').select('currency').where('id', '=', storeId).executeTakeFirst();
  return row?.currency;
}

/** Emails compare case-insensitively, as the unique index admins_email_key does. */
export function selectAdminByEmail(db: Db, storeId: string, email: string) {
  return db
    .selectFrom('admins')
    .select(['id', 'email', 'password_hash'])
    .where('store_id', '=', storeId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

export async function countStoreRows(db: Db): Promise<number> {
  const row = await db
    .selectFrom('stores')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every store, oldest first (the CLI's `stores list`: an operator's view across stores). */
export function selectStores(db: Db) {
  return db.selectFrom('stores').select(['id', 'slug', 'name', 'currency', 'created_at']).orderBy('created_at').orderBy('id').execute();
}

/** The admins of one store, or of every store when `storeId` is null, with their store's slug. */
export function selectAdmins(db: Db, storeId: string | null) {
  let query = db
    .selectFrom('admins')
    .innerJoin('stores', 'stores.id', 'admins.store_id')
    .select(['admins.id', 'admins.email', 'admins.created_at', 'stores.slug as store_slug']);
  if (storeId !== null) query = query.where('admins.store_id', '=', storeId);
  return query.orderBy('admins.created_at').orderBy('admins.id').execute();
}
