import type { ColumnType, Generated } from 'kysely';

/** The addresses table (migrations/0004_customers_orders.sql). */

type Timestamp = ColumnType<Date, Date | string, Date | string>;

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

export interface AddressTables {
  addresses: AddressTable;
}
