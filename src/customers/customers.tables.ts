import type { ColumnType, Generated } from 'kysely';

/** The customers table (migrations/0004_customers_orders.sql). */

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface CustomerTable {
  store_id: string;
  id: string;
  user_name: string;
  email: string | null;
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
  business_name: string | null;
  phone_number: string | null;
  role: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CustomerTables {
  customers: CustomerTable;
}
