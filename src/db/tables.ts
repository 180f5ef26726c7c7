import type { ColumnType, Generated } from 'kysely';
import type { CollectionTables } from '../collections/collections.tables.js';
import type { CustomerTables } from '../customers/customers.tables.js';
import type { IdempotencyTables } from '../idempotency/index.js';
import type { OrderTables } from '../orders/orders.tables.js';
import type { ProductTables } from '../products/products.tables.js';

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

export interface AttributeSetTable {
  store_id: string;
  id: string;
  name: string;
  status: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AttributeTable {
  store_id: string;
  id: string;
  name: string;
  attribute_set_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AttributeValueTable {
  store_id: string;
  id: string;
  attribute_id: string;
  name: string;
  value: string;
  hex: string | null;
  status: Generated<string>;
  position: number | null;
  created_at: Timestamp;
}

export interface FoundationTables {
  stores: StoreTable;
  admins: AdminTable;
  api_keys: ApiKeyTable;
  attribute_sets: AttributeSetTable;
  attributes: AttributeTable;
  attribute_values: AttributeValueTable;
}

/** Every table: the foundation's here, the others beside their resource. */
export interface DB extends FoundationTables, ProductTables, CollectionTables, CustomerTables, OrderTables, IdempotencyTables {}
