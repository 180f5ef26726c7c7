import type { Db } from '../db/database.js';
import { AppError, invalidField, registerUniqueConstraint } from '../errors.js';
import { newId } from '../shared/ids.js';
import { hashPassword } from '../shared/passwords.js';

registerUniqueConstraint('stores_slug_key', 'slug');
registerUniqueConstraint('admins_email_key', 'email');

export const STORE_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 256;

export interface StoreRecord {
  id: string;
  slug: string;
  name: string;
}

export function checkPassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) {
    throw invalidField(field, `must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`);
  }
}

export async function createStore(db: Db, input: { slug: string; name: string }): Promise<StoreRecord> {
  if (!STORE_SLUG.test(input.slug)) throw invalidField('slug', 'must be lowercase letters, digits and dashes (1-64)');
  if (!input.name.trim() || input.name.length > 255) throw invalidField('name', 'must be 1 to 255 characters');
  const store = { id: newId(), slug: input.slug, name: input.name.trim() };
  await db.insertInto('stores').values(store).execute();
  return store;
}

export async function createAdmin(db: Db, storeId: string, input: { email: string; password: string }) {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw invalidField('email', 'must be a valid email address');
  checkPassword(input.password);
  const admin = { store_id: storeId, id: newId(), email, password_hash: await hashPassword(input.password) };
  await db.insertInto('admins').values(admin).execute();
  return { id: admin.id, email };
}

export async function findStoreBySlug(db: Db, slug: string): Promise<StoreRecord | undefined> {
  return db.selectFrom('stores').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirst();
}

export async function requireStore(db: Db, slug: string): Promise<StoreRecord> {
  const store = await findStoreBySlug(db, slug);
  if (!store) throw new AppError(404, 'NOT_FOUND', `no store with slug "${slug}"`);
  return store;
}

export async function findAdminByEmail(db: Db, storeId: string, email: string) {
  return db
    .selectFrom('admins')
    .select(['id', 'email', 'password_hash'])
    .where('store_id', '=', storeId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

export async function countStores(db: Db): Promise<number> {
  const row = await db
    .selectFrom('stores')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
