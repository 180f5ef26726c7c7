import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { notFound, registerUniqueConstraint, validationError } from '../errors.js';
import { isId, newId } from '../shared/ids.js';
import { type AddressInput, type AddressPayload, MAX_ADDRESSES_PER_CUSTOMER } from './addresses.schema.js';
import { type AddressRow, COLUMNS, selectAddresses, toAddressColumns, toAddressOutput } from './addresses.sql.js';

// Only reachable if the customer lock were bypassed; named so the error still says which field.
registerUniqueConstraint('addresses_default_key', 'isDefault');

const missing = () => notFound('Address');

/**
 * 404 unless the customer is in the store. With `lock`, the customer row is locked: every change of
 * a customer's default address takes this lock first, so concurrent changes run one after another and
 * each sees the previous one's result (the partial unique index backs it). FOR NO KEY UPDATE, not FOR
 * UPDATE: it does not block the key-share locks of orders being created for the customer.
 */
async function requireCustomer(db: Db, storeId: string, customerId: string, lock = false): Promise<void> {
  if (!isId(customerId)) throw notFound('Customer');
  const query = db.selectFrom('customers').select('id').where('store_id', '=', storeId).where('id', '=', customerId);
  const row = await (lock ? query.forNoKeyUpdate() : query).executeTakeFirst();
  if (!row) throw notFound('Customer');
}

async function findAddress(db: Db, storeId: string, id: string): Promise<AddressRow> {
  const row = isId(id) ? await selectAddresses(db, storeId).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw missing();
  return row;
}

function customerAddresses(db: Db, storeId: string, customerId: string) {
  return db.updateTable('addresses').where('store_id', '=', storeId).where('customer_id', '=', customerId);
}

/** The customer's most recent address other than `except`: the heir of the default flag. */
function mostRecentAddress(db: Db, storeId: string, customerId: string, except?: string) {
  let query = db.selectFrom('addresses').select('id').where('store_id', '=', storeId).where('customer_id', '=', customerId);
  if (except) query = query.where('id', '<>', except);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

async function clearDefault(db: Db, storeId: string, customerId: string): Promise<void> {
  await customerAddresses(db, storeId, customerId).set({ is_default: false }).where('is_default', '=', true).execute();
}

async function makeDefault(db: Db, storeId: string, customerId: string, id: string): Promise<void> {
  await customerAddresses(db, storeId, customerId).set({ is_default: true }).where('id', '=', id).execute();
}

/** Creates an address of the customer; the first one is the default, `isDefault: true` takes the default over. */
export async function createAddress(db: Db, storeId: string, customerId: string, input: AddressInput): Promise<AddressPayload> {
  await requireCustomer(db, storeId, customerId, true);
  const { count } = await db
    .selectFrom('addresses')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('store_id', '=', storeId)
    .where('customer_id', '=', customerId)
    .executeTakeFirstOrThrow();
  if (count >= MAX_ADDRESSES_PER_CUSTOMER) {
    throw validationError([{ field: 'customerId', in: 'path', message: `a customer has at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses` }]);
  }
  const isDefault = count === 0 || input.isDefault === true;
  if (isDefault) await clearDefault(db, storeId, customerId);
  const now = new Date();
  const row = await db
    .insertInto('addresses')
    .values({
      ...toAddressColumns(input),
      store_id: storeId,
      id: newId(),
      customer_id: customerId,
      is_default: isDefault,
      created_at: now,
      updated_at: now,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toAddressOutput(row);
}

export async function getAddress(db: Db, storeId: string, id: string): Promise<AddressPayload> {
  return toAddressOutput(await findAddress(db, storeId, id));
}

/** The customer's addresses, newest first (no pagination: a customer's addresses are bounded). */
export async function listAddresses(db: Db, storeId: string, customerId: string): Promise<AddressPayload[]> {
  await requireCustomer(db, storeId, customerId);
  const rows = await selectAddresses(db, storeId)
    .where('customer_id', '=', customerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toAddressOutput);
}

/**
 * Updates the supplied fields. `isDefault: true` takes the default over; `isDefault: false` on the
 * default hands it to the most recent other address, so a customer with addresses always has one default.
 */
export async function updateAddress(db: Db, storeId: string, id: string, input: AddressInput): Promise<AddressPayload> {
  const { customer_id: customerId } = await findAddress(db, storeId, id);
  await requireCustomer(db, storeId, customerId, true);
  // Read again under the lock: a concurrent request may have moved the default or deleted the address.
  const current = await findAddress(db, storeId, id);
  const wanted = input.isDefault ?? current.is_default;
  if (wanted && !current.is_default) await clearDefault(db, storeId, customerId);
  const heir = !wanted && current.is_default ? await mostRecentAddress(db, storeId, customerId, id) : undefined;
  const row = await db
    .updateTable('addresses')
    .set({ ...toAddressColumns(input), is_default: wanted || (current.is_default && !heir), updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  if (heir) await makeDefault(db, storeId, customerId, heir.id);
  return toAddressOutput(row);
}

/** Deletes the address; when it was the default, the most recent remaining address becomes the default. */
export async function deleteAddress(db: Db, storeId: string, id: string): Promise<null> {
  const { customer_id: customerId } = await findAddress(db, storeId, id);
  await requireCustomer(db, storeId, customerId, true);
  const deleted = await db
    .deleteFrom('addresses')
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning('is_default')
    .executeTakeFirst();
  if (!deleted) throw missing();
  if (deleted.is_default) {
    const heir = await mostRecentAddress(db, storeId, customerId);
    if (heir) await makeDefault(db, storeId, customerId, heir.id);
  }
  return null;
}
