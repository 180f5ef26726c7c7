import { type Static, Type } from '@sinclair/typebox';
import {
  CreatedAt,
  Described,
  Email,
  Envelope,
  Nullable,
  PathId,
  PLACE_FIELDS,
  RecordId,
  StringEnum,
  Text,
  UpdatedAt,
} from '../shared/index.js';

export const ADDRESS_TYPES = ['Home', 'Work', 'Other'] as const;
/** A non-paginated list must stay bounded: a customer keeps at most this many addresses. */
export const MAX_ADDRESSES_PER_CUSTOMER = 250;

/** The AddressPayload fields a caller writes; the one definition of the shape. */
const addressFields = {
  name: Nullable(Described(Text(255), 'a label for the address or the name of the recipient, at most 255 characters; null: none')),
  email: Nullable(Described(Email, 'email address for deliveries, at most 320 characters; null: none')),
  ...PLACE_FIELDS,
  addressType: StringEnum(ADDRESS_TYPES, { description: '`Home`, `Work` or `Other`' }),
  isDefault: Type.Boolean({
    description: "whether it is the customer's default address (one per customer: the first address is; true moves the default here)",
  }),
};

/** Output: every field always present (null when unset), plus the owner and timestamps. */
export const AddressPayload = Type.Object(
  {
    id: RecordId,
    customerId: Type.String({ description: 'the identifier of the customer it belongs to; read-only' }),
    ...addressFields,
    createdAt: CreatedAt,
    updatedAt: UpdatedAt,
  },
  { title: 'Address', description: 'an address of a customer' },
);
export type AddressPayload = Static<typeof AddressPayload>;

/** Create (nested, or `address` of a new customer) and PATCH take the same optional fields; unknown ones are dropped. */
export const AddressBody = Type.Partial(Type.Object(addressFields, { additionalProperties: false }), {
  title: 'AddressInput',
  description: 'the fields of an address; on a change, the fields given change and the others keep their value',
});
export type AddressInput = Static<typeof AddressBody>;

export const CustomerIdParams = Type.Object({ customerId: PathId("the customer's identifier") });

export const AddressEnvelope = Envelope(AddressPayload);
export const AddressArrayEnvelope = Envelope(Type.Array(AddressPayload, { description: "the customer's addresses, newest first" }));
export const NullEnvelope = Envelope(Type.Null());
