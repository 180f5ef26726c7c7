import type { Db } from '../db/index.js';
import { withTx } from '../db/index.js';
import { AppError, invalidField } from '../errors.js';
import { EMAIL, hashPassword, isCurrencyCode, MAX_PASSWORD, MIN_PASSWORD, newId } from '../shared/index.js';
import {
  countStoreRows,
  insertAdmin,
  insertStore,
  type StoreRecord,
  selectAdminByEmail,
  selectAdmins,
  selectStoreBySlug,
  selectStoreCurrency,
  selectStores,
  updateStoreRow,
} from './stores.sql.js';

export type { StoreRecord } from './stores.sql.js';

const STORE_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

function checkPassword(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD || password.length > MAX_PASSWORD) {
    throw invalidField(field, `must be ${MIN_PASSWORD} to ${MAX_PASSWORD} characters`);
  }
}

function checkName(name: string): void {
  if (!name.trim() || name.length > 255) throw invalidField('name', 'must be 1 to 255 characters');
}

/** The currency of a store's base prices (CONTRACT §14): an ISO 4217 code in uppercase. */
function checkCurrency(currency: string): void {
  if (!isCurrencyCode(currency)) throw invalidField('currency', 'must be an ISO 4217 currency code, as USD, EUR or JPY');
}

export async function createStore(db: Db, input: { slug: string; name: string; currency?: string }): Promise<StoreRecord> {
  if (!STORE_SLUG.test(input.slug)) throw invalidField('slug', 'must be lowercase letters, digits and dashes (1-64)');
  checkName(input.name);
  const currency = input.currency ?? 'USD';
  checkCurrency(currency);
  const store = { id: newId(), slug: input.slug, name: input.name.trim(), currency };
  await withTx(db, (trx) => insertStore(trx, store));
  return store;
}

/** Changes a store's name or currency (the CLI's `stores update`); what is not given stays. */
export async function updateStore(db: Db, slug: string, input: { name?: string; currency?: string }): Promise<StoreRecord> {
  if (input.name !== undefined) checkName(input.name);
  if (input.currency !== undefined) checkCurrency(input.currency);
  const store = await updateStoreRow(db, slug, { name: input.name?.trim(), currency: input.currency });
  if (!store) throw new AppError(404, 'NOT_FOUND', `no store with slug "${slug}"`);
  return store;
}

/** The currency of the store's base prices. */
export async function storeCurrency(db: Db, storeId: string): Promise<string> {
  return (await selectStoreCurrency(db, storeId)) ?? 'USD';
}

/** The password is hashed before the transaction opens (when the caller has none open): hashing is slow. */
export async function createAdmin(db: Db, storeId: string, input: { email: string; password: string }) {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw invalidField('email', 'must be a valid email address');
  checkPassword(input.password);
  const admin = { store_id: storeId, id: newId(), email, password_hash: await hashPassword(input.password) };
  await withTx(db, (trx) => insertAdmin(trx, admin));
  return { id: admin.id, email };
}

export function findStoreBySlug(db: Db, slug: string): Promise<StoreRecord | undefined> {
  return selectStoreBySlug(db, slug);
}

export async function requireStore(db: Db, slug: string): Promise<StoreRecord> {
  const store = await findStoreBySlug(db, slug);
  if (!store) throw new AppError(404, 'NOT_FOUND', `no store with slug "${slug}"`);
  return store;
}

export function findAdminByEmail(db: Db, storeId: string, email: string) {
  return selectAdminByEmail(db, storeId, email);
}

export function countStores(db: Db): Promise<number> {
  return countStoreRows(db);
}

const iso = (value: Date | string) => new Date(value).toISOString();

export async function listStores(db: Db) {
  const rows = await selectStores(db);
  return rows.map((row) => ({ id: row.id, slug: row.slug, name: row.name, currency: row.currency, createdAt: iso(row.created_at) }));
}

/** Admins without their password hashes; `storeId` null lists every store's. */
export async function listAdmins(db: Db, storeId: string | null) {
  const rows = await selectAdmins(db, storeId);
  return rows.map((row) => ({ id: row.id, store: row.store_slug, email: row.email, createdAt: iso(row.created_at) }));
}
