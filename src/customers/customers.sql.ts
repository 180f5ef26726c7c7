import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { DB, Db } from '../db/index.js';
import { currentDocumentSql, type DocumentTable, ilikeAny, type ListSpec } from '../reads/index.js';
import { customFieldsOutput, iso, suppliedColumns } from '../shared/index.js';
import type { CUSTOMER_SORTS, Customer, UpdateCustomerInput } from './customers.schema.js';

// The password hash is never selected for output.
export const COLUMNS = [
  'id',
  'user_name',
  'email',
  'first_name',
  'last_name',
  'business_name',
  'phone_number',
  'role',
  'custom_fields',
  'tags',
  'created_at',
  'updated_at',
] as const;
export type CustomerRow = Pick<Selectable<DB['customers']>, (typeof COLUMNS)[number]>;

export const listSpec: ListSpec<typeof CUSTOMER_SORTS> = {
  path: '/customers',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at` },
  idColumn: sql`id`,
  search: ilikeAny(['user_name', 'email', 'first_name', 'last_name', 'phone_number', 'business_name']),
  // the six trigram indexes (migrations/0006) whatever the term: see ListSpec.searchPlan
  searchPlan: 'generic',
};

export function toCustomerOutput(row: CustomerRow): Customer {
  return {
    id: row.id,
    userName: row.user_name,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    businessName: row.business_name,
    phoneNumber: row.phone_number,
    role: row.role,
    customFields: customFieldsOutput(row.custom_fields),
    tags: row.tags,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/**
 * The supplied profile fields as column values; absent ones are left out so PATCH keeps them (customFields:
 * the service's; tags: as the service normalized them).
 */
export function toProfileColumns(input: Omit<UpdateCustomerInput, 'customFields' | 'password'>): Updateable<DB['customers']> {
  return suppliedColumns({
    tags: input.tags,
    email: input.email,
    first_name: input.firstName,
    last_name: input.lastName,
    business_name: input.businessName,
    phone_number: input.phoneNumber,
  });
}

export function selectCustomers(db: Db, storeId: string) {
  return db.selectFrom('customers').select(COLUMNS).where('store_id', '=', storeId);
}

/** Stored customer documents (migrations/0075; customers.documents.ts). */
export const CUSTOMER_DOCUMENTS: DocumentTable = { documents: 'customer_documents', records: 'customers', key: 'customer_id' };

/** Each customer's id and its stored document while that is current (src/reads/stored-documents.ts), else null. */
export function selectCustomerDocuments(db: Db, storeId: string) {
  return db
    .selectFrom('customers')
    .select(['id', currentDocumentSql(CUSTOMER_DOCUMENTS).as('document')])
    .where('store_id', '=', storeId);
}

export function insertCustomer(db: Db, values: Insertable<DB['customers']>): Promise<CustomerRow> {
  return db.insertInto('customers').values(values).returning(COLUMNS).executeTakeFirstOrThrow();
}

export function updateCustomerRow(
  db: Db,
  storeId: string,
  id: string,
  changes: Updateable<DB['customers']>,
): Promise<CustomerRow | undefined> {
  return db
    .updateTable('customers')
    .set(changes)
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
}

export function findCustomerRow(db: Db, storeId: string, id: string): Promise<CustomerRow | undefined> {
  return selectCustomers(db, storeId).where('id', '=', id).executeTakeFirst();
}

/**
 * The store's customer named `userName` as the unique index compares names (case-insensitive), row locked
 * until the transaction ends: an import line's key.
 */
export function lockCustomerByUserName(db: Db, storeId: string, userName: string): Promise<CustomerRow | undefined> {
  return selectCustomers(db, storeId).where(sql`lower(user_name)`, '=', sql`lower(${userName})`).forUpdate().executeTakeFirst();
}
