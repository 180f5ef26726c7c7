import { Described, Nullable, Text } from './common.schema.js';

/**
 * The fields that say where a place is: a customer's address has them (src/addresses), and so has a
 * location where stock is kept (src/locations). One definition, so both read and validate them alike.
 */
export const PLACE_FIELDS = {
  house: Nullable(Described(Text(1000), 'house number or name, at most 1,000 characters; null: none')),
  street: Nullable(Described(Text(1000), 'street, at most 1,000 characters; null: none')),
  landmark: Nullable(Described(Text(1000), 'a landmark near it, at most 1,000 characters; null: none')),
  city: Nullable(Described(Text(255), 'city, at most 255 characters; null: none')),
  stateName: Nullable(Described(Text(255), 'state, province or region, at most 255 characters; null: none')),
  countryName: Nullable(Described(Text(255), 'country, at most 255 characters; null: none')),
  pincode: Nullable(Described(Text(64), 'postal code, at most 64 characters; null: none')),
  phone: Nullable(Described(Text(64), 'phone number, at most 64 characters; null: none')),
};
