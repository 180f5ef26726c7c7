import type { ColumnType, Generated } from 'kysely';

/** Tables of customers and their addresses (migrations/0004_customers_orders.sql). */

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

export interface AddressTable {
  store_id: string;
  id: string;
  customer_id: string;
  name: string | null;
  email: string | null;
  house: string | null;
  street: string | null;
  landmark: string | null;
  city: string | null;
  state_name: string | null;
  country_name: string | null;
  pincode: string | null;
  phone: string | null;
  address_type: Generated<string>;
  is_default: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CustomerTables {
  customers: CustomerTable;
  addresses: AddressTable;
}
