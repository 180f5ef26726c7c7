import type { ColumnType, Generated } from 'kysely';
import type { AddressTables } from '../addresses/index.js';
import type { ApiKeyTables } from '../api-keys/index.js';
import type { CollectionTables } from '../collections/collections.tables.js';
import type { CustomerTables } from '../customers/index.js';
import type { OrderTables } from '../orders/index.js';
import type { ProductTables } from '../products/products.tables.js';
import type { StoreTables } from '../stores/index.js';

/** Kysely's view of the tables in migrations/. Timestamps come back as Date from both drivers. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;

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
  attribute_sets: AttributeSetTable;
  attributes: AttributeTable;
  attribute_values: AttributeValueTable;
}

/** Every table: the foundation's here, the others beside their resource. */
export interface DB
  extends StoreTables,
    ApiKeyTables,
    FoundationTables,
    ProductTables,
    CollectionTables,
    CustomerTables,
    AddressTables,
    OrderTables {}
