import { createAddress } from '../addresses/addresses.service.js';
import type { Db } from '../db/database.js';
import { notFound, registerUniqueConstraint, validationError } from '../errors.js';
import { creationTimes, pastTimestampDetails } from '../shared/common.schema.js';
import { isId, newId } from '../shared/ids.js';
import { runList } from '../shared/list.js';
import type { CreateCustomerInput, Customer, CustomerListQuery, UpdateCustomerInput } from './customers.schema.js';
import { COLUMNS, listSpec, selectCustomers, toCustomerOutput, toProfileColumns } from './customers.sql.js';

registerUniqueConstraint('customers_user_name_key', 'userName');
registerUniqueConstraint('customers_email_key', 'email');

const missing = () => notFound('Customer');

/**
 * Creates the customer and, when `address` is given, its first (default) address in the same
 * transaction. The password arrives already hashed: hashing is slow and must not hold a transaction open.
 */
export async function createCustomer(db: Db, storeId: string, input: CreateCustomerInput, passwordHash: string): Promise<Customer> {
  const details = pastTimestampDetails(input.createdAt, 'createdAt');
  if (details.length) throw validationError(details);
  const { createdAt, updatedAt } = creationTimes(input.createdAt);
  const row = await db
    .insertInto('customers')
    .values({
      ...toProfileColumns(input),
      store_id: storeId,
      id: newId(),
      user_name: input.userName.trim(),
      password_hash: passwordHash,
      role: 'user',
      created_at: createdAt,
      updated_at: updatedAt,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  if (input.address) await createAddress(db, storeId, row.id, input.address);
  return toCustomerOutput(row);
}

export async function getCustomer(db: Db, storeId: string, id: string): Promise<Customer> {
  const row = isId(id) ? await selectCustomers(db, storeId).where('id', '=', id).executeTakeFirst() : undefined;
  if (!row) throw missing();
  return toCustomerOutput(row);
}

export async function updateCustomer(db: Db, storeId: string, id: string, input: UpdateCustomerInput): Promise<Customer> {
  if (!isId(id)) throw missing();
  const row = await db
    .updateTable('customers')
    .set({ ...toProfileColumns(input), updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) throw missing();
  return toCustomerOutput(row);
}

export async function listCustomers(db: Db, storeId: string, query: CustomerListQuery) {
  const { rows, pagination } = await runList(selectCustomers(db, storeId), query, listSpec);
  return { data: rows.map(toCustomerOutput), pagination };
}
