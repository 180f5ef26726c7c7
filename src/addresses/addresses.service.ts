import type { Db } from '../db/index.js';
import { type Tx, withTx } from '../db/index.js';
import { found, validationError } from '../errors.js';
import { noteChange } from '../events/index.js';
import { isId, lockRecord, newId, recordExists } from '../shared/index.js';
import { type AddressInput, type AddressPayload, MAX_ADDRESSES_PER_CUSTOMER } from './addresses.schema.js';
import {
  type AddressRow,
  clearDefault,
  countAddresses,
  deleteAddressRow,
  findAddressRow,
  insertAddress,
  makeDefault,
  mostRecentAddress,
  selectCustomerAddresses,
  selectDefaultAddresses,
  toAddressColumns,
  toAddressOutput,
  updateAddressRow,
} from './addresses.sql.js';

async function requireCustomer(db: Db, storeId: string, customerId: string): Promise<void> {
  found(await recordExists(db, 'customers', storeId, customerId), 'Customer');
}

/**
 * 404 unless the customer is in the store; locks the customer row. Every change of a customer's default
 * address takes this lock first, so concurrent changes run one after another and each sees the previous
 * one's result (the partial unique index addresses_default_key backs it).
 */
async function lockCustomer(trx: Tx, storeId: string, customerId: string): Promise<void> {
  found(await lockRecord(trx, 'customers', storeId, customerId), 'Customer');
}

async function findAddress(db: Db, storeId: string, id: string): Promise<AddressRow> {
  return found(isId(id) && (await findAddressRow(db, storeId, id)), 'Address');
}

/**
 * The default moves. Without `to`: the current default stops being one; with `to`: `to` becomes the
 * default (the caller has just unset or deleted the old one). The other address whose isDefault this
 * changes gets its `address.updated` event with the write (the written one has its own).
 */
async function moveDefault(trx: Tx, storeId: string, customerId: string, to?: string): Promise<void> {
  const changed = to ? [to] : await clearDefault(trx, storeId, customerId);
  if (to) await makeDefault(trx, storeId, customerId, to);
  for (const id of changed) noteChange(trx, 'address.updated', id, () => getAddress(trx, storeId, id));
}

/**
 * Before a customer's delete (which takes its addresses along, by foreign key): each address gets its
 * `address.deleted` event with the customer's, data as it was.
 */
export async function noteCustomerAddressesDeleted(trx: Tx, storeId: string, customerId: string): Promise<void> {
  for (const address of (await selectCustomerAddresses(trx, storeId, customerId)).map(toAddressOutput)) {
    noteChange(trx, 'address.deleted', address.id, async () => address);
  }
}

/** Creates an address of the customer; the first one is the default, `isDefault: true` takes the default over. */
export function createAddress(db: Db, storeId: string, customerId: string, input: AddressInput): Promise<AddressPayload> {
  return withTx(db, async (trx) => {
    await lockCustomer(trx, storeId, customerId);
    const count = await countAddresses(trx, storeId, customerId);
    if (count >= MAX_ADDRESSES_PER_CUSTOMER) {
      throw validationError([
        { field: 'customerId', in: 'path', message: `a customer has at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses` },
      ]);
    }
    const isDefault = count === 0 || input.isDefault === true;
    if (isDefault) await moveDefault(trx, storeId, customerId);
    const now = new Date();
    const row = await insertAddress(trx, {
      ...toAddressColumns(input),
      store_id: storeId,
      id: newId(),
      customer_id: customerId,
      is_default: isDefault,
      created_at: now,
      updated_at: now,
    });
    return toAddressOutput(row);
  });
}

export async function getAddress(db: Db, storeId: string, id: string): Promise<AddressPayload> {
  return toAddressOutput(await findAddress(db, storeId, id));
}

/** The customer's addresses, newest first (no pagination: a customer's addresses are bounded). */
/** customer id → its default address, for the customers of `customerIds` that have one (exports read these in chunks). */
export async function getDefaultAddresses(db: Db, storeId: string, customerIds: string[]): Promise<Map<string, AddressPayload>> {
  const rows = await selectDefaultAddresses(db, storeId, customerIds.filter(isId));
  return new Map(rows.map((row) => [row.customer_id, toAddressOutput(row)]));
}

export async function listAddresses(db: Db, storeId: string, customerId: string): Promise<AddressPayload[]> {
  await requireCustomer(db, storeId, customerId);
  return (await selectCustomerAddresses(db, storeId, customerId)).map(toAddressOutput);
}

/** The address, read again under its customer's lock: a concurrent request may have moved the default or deleted it. */
async function lockAddress(trx: Tx, storeId: string, id: string): Promise<AddressRow> {
  const { customer_id: customerId } = await findAddress(trx, storeId, id);
  await lockCustomer(trx, storeId, customerId);
  return findAddress(trx, storeId, id);
}

/**
 * If-Match's current version: the address as GET returns it, read under its customer's lock (the lock
 * every change of a customer's addresses takes first), so the check and the write are one step.
 */
export const currentAddress = (id: string) => async (trx: Tx, storeId: string) => toAddressOutput(await lockAddress(trx, storeId, id));

/**
 * Updates the supplied fields. `isDefault: true` takes the default over; `isDefault: false` on the
 * default hands it to the most recent other address, so a customer with addresses always has one default.
 */
export function updateAddress(db: Db, storeId: string, id: string, input: AddressInput): Promise<AddressPayload> {
  return withTx(db, async (trx) => {
    const current = await lockAddress(trx, storeId, id);
    const customerId = current.customer_id;
    const wanted = input.isDefault ?? current.is_default;
    if (wanted && !current.is_default) await moveDefault(trx, storeId, customerId);
    const heir = !wanted && current.is_default ? await mostRecentAddress(trx, storeId, customerId, id) : undefined;
    const isDefault = wanted || (current.is_default && !heir);
    const row = await updateAddressRow(trx, storeId, id, { ...toAddressColumns(input), is_default: isDefault, updated_at: new Date() });
    if (heir) await moveDefault(trx, storeId, customerId, heir.id);
    return toAddressOutput(row);
  });
}

/** Deletes the address; when it was the default, the most recent remaining address becomes the default. */
export function deleteAddress(db: Db, storeId: string, id: string): Promise<null> {
  return withTx(db, async (trx) => {
    const { customer_id: customerId } = await lockAddress(trx, storeId, id);
    const deleted = found(await deleteAddressRow(trx, storeId, id), 'Address');
    if (deleted.is_default) {
      const heir = await mostRecentAddress(trx, storeId, customerId);
      if (heir) await moveDefault(trx, storeId, customerId, heir.id);
    }
    return null;
  });
}
