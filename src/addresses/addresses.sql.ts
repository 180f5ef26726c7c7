import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { DB, Db, Tx } from '../db/index.js';
import { iso } from '../shared/index.js';
import type { AddressInput, AddressPayload } from './addresses.schema.js';

export const COLUMNS = [
  'id',
  'customer_id',
  'name',
  'email',
  'house',
  'street',
  'landmark',
  'city',
  'state_name',
  'country_name',
  'pincode',
  'phone',
  'address_type',
  'is_default',
  'created_at',
  'updated_at',
] as const;
export type AddressRow = Pick<Selectable<DB['addresses']>, (typeof COLUMNS)[number]>;

export function toAddressOutput(row: AddressRow): AddressPayload {
  return {
    id: row.id,
    customerId: row.customer_id,
    name: row.name,
    email: row.email,
    house: row.house,
    street: row.street,
    landmark: row.landmark,
    city: row.city,
    stateName: row.state_name,
    countryName: row.country_name,
    pincode: row.pincode,
    phone: row.phone,
    addressType: row.address_type as AddressPayload['addressType'],
    isDefault: row.is_default,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The supplied fields as column values; absent fields are left out (PATCH keeps them), `isDefault` is the service's. */
export function toAddressColumns(input: AddressInput): Updateable<DB['addresses']> {
  const columns: Record<string, unknown> = {
    name: input.name,
    email: input.email,
    house: input.house,
    street: input.street,
    landmark: input.landmark,
    city: input.city,
    state_name: input.stateName,
    country_name: input.countryName,
    pincode: input.pincode,
    phone: input.phone,
    address_type: input.addressType,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

export function selectAddresses(db: Db, storeId: string) {
  return db.selectFrom('addresses').select(COLUMNS).where('store_id', '=', storeId);
}

export function findAddressRow(db: Db, storeId: string, id: string): Promise<AddressRow | undefined> {
  return selectAddresses(db, storeId).where('id', '=', id).executeTakeFirst();
}

/** The customer's addresses, newest first. */
export function selectCustomerAddresses(db: Db, storeId: string, customerId: string): Promise<AddressRow[]> {
  return selectAddresses(db, storeId).where('customer_id', '=', customerId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** The default address of each of `customerIds` that has one (one statement, by the partial unique index). */
export function selectDefaultAddresses(db: Db, storeId: string, customerIds: string[]): Promise<AddressRow[]> {
  if (customerIds.length === 0) return Promise.resolve([]);
  return selectAddresses(db, storeId).where('customer_id', 'in', customerIds).where('is_default', '=', true).execute();
}

export async function countAddresses(db: Db, storeId: string, customerId: string): Promise<number> {
  const { count } = await db
    .selectFrom('addresses')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('store_id', '=', storeId)
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  return count;
}

export function insertAddress(db: Db, values: Insertable<DB['addresses']>): Promise<AddressRow> {
  return db.insertInto('addresses').values(values).returning(COLUMNS).executeTakeFirstOrThrow();
}

export function updateAddressRow(db: Db, storeId: string, id: string, changes: Updateable<DB['addresses']>): Promise<AddressRow> {
  return db
    .updateTable('addresses')
    .set(changes)
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Whether the deleted address was the default; undefined when there was none to delete. */
export function deleteAddressRow(db: Db, storeId: string, id: string): Promise<{ is_default: boolean } | undefined> {
  return db.deleteFrom('addresses').where('store_id', '=', storeId).where('id', '=', id).returning('is_default').executeTakeFirst();
}

// The default flag moves only under the customer's row lock, hence `Tx`.

/** The customer's most recent address other than `except`: the heir of the default flag. */
export function mostRecentAddress(trx: Tx, storeId: string, customerId: string, except?: string) {
  let query = trx.selectFrom('addresses').select('id').where('store_id', '=', storeId).where('customer_id', '=', customerId);
  if (except) query = query.where('id', '<>', except);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

function customerAddresses(trx: Tx, storeId: string, customerId: string) {
  return trx.updateTable('addresses').where('store_id', '=', storeId).where('customer_id', '=', customerId);
}

/** The customer's default is no longer one (its isDefault changed, so its updatedAt moves); returns its id, if any. */
export async function clearDefault(trx: Tx, storeId: string, customerId: string): Promise<string[]> {
  const rows = await customerAddresses(trx, storeId, customerId)
    .set({ is_default: false, updated_at: new Date() })
    .where('is_default', '=', true)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function makeDefault(trx: Tx, storeId: string, customerId: string, id: string): Promise<void> {
  await customerAddresses(trx, storeId, customerId).set({ is_default: true, updated_at: new Date() }).where('id', '=', id).execute();
}
