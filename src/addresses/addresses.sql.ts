import type { Selectable, Updateable } from 'kysely';
import type { AddressTable } from '../customers/customers.tables.js';
import type { Db } from '../db/database.js';
import { iso } from '../shared/envelope.js';
import type { AddressInput, AddressPayload } from './addresses.schema.js';

export const COLUMNS = [
  'id',
  'customer_id',
  'name',
  'email',
  'house',
  'street',
  'landmark',
  'city',
  'state_name',
  'country_name',
  'pincode',
  'phone',
  'address_type',
  'is_default',
  'created_at',
  'updated_at',
] as const;
export type AddressRow = Pick<Selectable<AddressTable>, (typeof COLUMNS)[number]>;

export function toAddressOutput(row: AddressRow): AddressPayload {
  return {
    id: row.id,
    customerId: row.customer_id,
    name: row.name,
    email: row.email,
    house: row.house,
    street: row.street,
    landmark: row.landmark,
    city: row.city,
    stateName: row.state_name,
    countryName: row.country_name,
    pincode: row.pincode,
    phone: row.phone,
    addressType: row.address_type as AddressPayload['addressType'],
    isDefault: row.is_default,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The supplied fields as column values; absent fields are left out (PATCH keeps them), `isDefault` is the service's. */
export function toAddressColumns(input: AddressInput): Updateable<AddressTable> {
  const columns: Record<string, unknown> = {
    name: input.name,
    email: input.email,
    house: input.house,
    street: input.street,
    landmark: input.landmark,
    city: input.city,
    state_name: input.stateName,
    country_name: input.countryName,
    pincode: input.pincode,
    phone: input.phone,
    address_type: input.addressType,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

export function selectAddresses(db: Db, storeId: string) {
  return db.selectFrom('addresses').select(COLUMNS).where('store_id', '=', storeId);
}
