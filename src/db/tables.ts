import type { ColumnType } from 'kysely';
import type { AttributeSetTables } from '../attribute-sets/index.js';
import type { AttributeTables } from '../attributes/index.js';
import type { CollectionTables } from '../collections/index.js';
import type { CustomerTables } from '../customers/customers.tables.js';
import type { OrderTables } from '../orders/orders.tables.js';
import type { ProductTables } from '../products/index.js';

/** Kysely's view of the tables in migrations/. Timestamps come back as Date from both drivers. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface StoreTable {
  id: string;
  slug: string;
  name: string;
  created_at: CreatedAt;
}

export interface AdminTable {
  store_id: string;
  id: string;
  email: string;
  password_hash: string;
  created_at: CreatedAt;
}

export interface ApiKeyTable {
  store_id: string;
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  scopes: string[];
  created_at: CreatedAt;
  revoked_at: Timestamp | null;
}

export interface FoundationTables {
  stores: StoreTable;
  admins: AdminTable;
  api_keys: ApiKeyTable;
}

/** Every table: the foundation's here, the others beside their resource. */
export interface DB
  extends FoundationTables,
    AttributeSetTables,
    AttributeTables,
    ProductTables,
    CollectionTables,
    CustomerTables,
    OrderTables {}
