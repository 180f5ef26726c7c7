import { createAddress, noteCustomerAddressesDeleted } from '../addresses/index.js';
import type { Db, Tx } from '../db/index.js';
import { withTx } from '../db/index.js';
import { found, validationError } from '../errors.js';
import { detachCustomerOrders } from '../orders/index.js';
import { countedTotal, countedTotalSql, documentTexts, runList, runListPage, selectByIds, sharedRead } from '../reads/index.js';
import {
  creationTimes,
  customFieldsDetails,
  deleteRecord,
  isId,
  lockAndMergeCustomFields,
  lockedCurrent,
  newCustomFields,
  newId,
  normalizeTags,
  pastTimestampDetails,
  suppliedColumns,
} from '../shared/index.js';
import type { CreateCustomerInput, Customer, CustomerListQuery, UpdateCustomerInput } from './customers.schema.js';
import {
  findCustomerRow,
  insertCustomer,
  listSpec,
  selectCustomerDocuments,
  selectCustomers,
  toCustomerOutput,
  toProfileColumns,
  updateCustomerRow,
} from './customers.sql.js';

/**
 * Creates the customer and, when `address` is given, its first (default) address in the same
 * transaction. The password arrives already hashed: hashing is slow and must not hold a transaction open.
 * An imported customer may come without one (null): it has none until PATCH sets one.
 */
export function createCustomer(
  db: Db,
  storeId: string,
  input: Omit<CreateCustomerInput, 'password'>,
  passwordHash: string | null,
): Promise<Customer> {
  const customFields = newCustomFields(input.customFields);
  const tags = normalizeTags(input.tags);
  const details = [...pastTimestampDetails(input.createdAt, 'createdAt'), ...customFieldsDetails(customFields), ...tags.details];
  if (details.length) throw validationError(details);
  const { createdAt, updatedAt } = creationTimes(input.createdAt);
  return withTx(db, async (trx) => {
    const row = await insertCustomer(trx, {
      ...toProfileColumns({ ...input, tags: tags.tags }),
      store_id: storeId,
      id: newId(),
      user_name: input.userName.trim(),
      password_hash: passwordHash,
      custom_fields: JSON.stringify(customFields),
      role: 'user',
      created_at: createdAt,
      updated_at: updatedAt,
    });
    if (input.address) await createAddress(trx, storeId, row.id, input.address);
    return toCustomerOutput(row);
  });
}

export async function getCustomer(db: Db, storeId: string, id: string): Promise<Customer> {
  const row = found(isId(id) && (await findCustomerRow(db, storeId, id)), 'Customer');
  return toCustomerOutput(row);
}

/** The store's customers among `ids` as GET returns them, in the order of `ids`, in one statement. */
export async function getCustomersByIds(db: Db, storeId: string, ids: string[]): Promise<Customer[]> {
  const rows = await selectByIds(selectCustomers(db, storeId), ids);
  return rows.map(toCustomerOutput);
}

/** If-Match's current version: the customer as GET returns it, row locked. */
export const currentCustomer = (id: string) => lockedCurrent('customers', id, getCustomer);

/**
 * Deletes the customer and its addresses (foreign key cascade); its orders stay, with userId null. The
 * customer's row is locked first, so no order can be created for it in between (the order's foreign key
 * check waits, then fails as a 400).
 */
export function deleteCustomer(db: Db, storeId: string, id: string): Promise<{ id: string }> {
  return withTx(db, async (trx) => {
    await currentCustomer(id)(trx, storeId);
    await detachCustomerOrders(trx, storeId, id);
    await noteCustomerAddressesDeleted(trx, storeId, id);
    return deleteRecord(trx, 'customers', storeId, id, 'Customer');
  });
}

/**
 * PATCH: the supplied profile fields, custom fields merged key by key into the stored ones (the row locked
 * for the merge), and a new password when one is given (hashed by the caller, before the transaction).
 */
export async function updateCustomer(
  db: Db,
  storeId: string,
  id: string,
  input: UpdateCustomerInput,
  passwordHash?: string,
): Promise<Customer> {
  const tags = normalizeTags(input.tags);
  if (tags.details.length) throw validationError(tags.details);
  const update = async (trx: Tx) => {
    const customFields = input.customFields && (await lockAndMergeCustomFields(trx, 'customers', storeId, id, input.customFields));
    if (input.customFields && customFields === undefined) return undefined;
    const changes = suppliedColumns({ custom_fields: customFields, password_hash: passwordHash });
    return updateCustomerRow(trx, storeId, id, { ...toProfileColumns({ ...input, tags: tags.tags }), ...changes, updated_at: new Date() });
  };
  return toCustomerOutput(found(isId(id) && (await withTx(db, update)), 'Customer'));
}

/**
 * A page of customers as their JSON texts, what the list sends: each customer's stored document while it is
 * current (customers.documents.ts), else the customer built from its row. Nothing of a documented row is
 * parsed, mapped or serialized (docs/decisions.md, "Stored documents").
 */
export function listCustomerTexts(db: Db, storeId: string, query: CustomerListQuery) {
  return sharedRead(db, `customers ${storeId} ${JSON.stringify(query)}`, async () => {
    const total = () => countedTotal(db, storeId, { list: 'customers' });
    const counted = countedTotalSql(storeId, { list: 'customers' });
    const { rows, pagination } = await runList(selectCustomerDocuments(db, storeId), query, listSpec, {
      db,
      storeId,
      total,
      counted,
      unfiltered: true,
      batched: db,
    });
    const texts = await documentTexts(rows, (ids) => getCustomersByIds(db, storeId, ids));
    return { texts, pagination };
  });
}

/**
 * A page of the same list without its total (runListPage: no count, a previous page by `before`): what the
 * console lists, as fast at a million customers as at a thousand (CONTRACT §12).
 */
export async function listCustomerPage(db: Db, storeId: string, query: CustomerListQuery) {
  const { rows, nextCursor, prevCursor } = await runListPage(selectCustomerDocuments(db, storeId), query, listSpec, { db, storeId });
  const texts = await documentTexts(rows, (ids) => getCustomersByIds(db, storeId, ids));
  return { texts, nextCursor, prevCursor };
}

/** The customers among `ids` as their JSON texts, in id order (as listCustomerTexts: stored documents first). */
export async function getCustomerTextsByIds(db: Db, storeId: string, ids: string[]): Promise<string[]> {
  return documentTexts(await selectByIds(selectCustomerDocuments(db, storeId), ids), (missing) => getCustomersByIds(db, storeId, missing));
}
