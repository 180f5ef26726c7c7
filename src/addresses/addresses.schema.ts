import { type Static, Type } from '@sinclair/typebox';
import { Email, Envelope, ID_PATTERN, Nullable, StringEnum, Text, Timestamp } from '../shared/index.js';

export const ADDRESS_TYPES = ['Home', 'Work', 'Other'] as const;
/** A non-paginated list must stay bounded: a customer keeps at most this many addresses. */
export const MAX_ADDRESSES_PER_CUSTOMER = 250;

/** The AddressPayload fields a caller writes; the one definition of the shape. */
const addressFields = {
  name: Nullable(Text(255)),
  email: Nullable(Email),
  house: Nullable(Text(1000)),
  street: Nullable(Text(1000)),
  landmark: Nullable(Text(1000)),
  city: Nullable(Text(255)),
  stateName: Nullable(Text(255)),
  countryName: Nullable(Text(255)),
  pincode: Nullable(Text(64)),
  phone: Nullable(Text(64)),
  addressType: StringEnum(ADDRESS_TYPES),
  isDefault: Type.Boolean(),
};

/** Output: every field always present (null when unset), plus the owner and timestamps. */
export const AddressPayload = Type.Object(
  {
    id: Type.String(),
    customerId: Type.String(),
    ...addressFields,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Address' },
);
export type AddressPayload = Static<typeof AddressPayload>;

/** Create (nested, or `address` of a new customer) and PATCH take the same optional fields; unknown ones are dropped. */
export const AddressBody = Type.Partial(Type.Object(addressFields, { additionalProperties: false }), { title: 'AddressInput' });
export type AddressInput = Static<typeof AddressBody>;

export const CustomerIdParams = Type.Object({ customerId: Type.String({ pattern: ID_PATTERN }) });

export const AddressEnvelope = Envelope(AddressPayload);
export const AddressArrayEnvelope = Envelope(Type.Array(AddressPayload));
export const NullEnvelope = Envelope(Type.Null());
