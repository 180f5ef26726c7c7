import { type Static, Type } from '@sinclair/typebox';
import { AddressBody } from '../addresses/index.js';
import { ListQuery } from '../reads/index.js';
import {
  Body,
  CreatedAt,
  CustomFieldsInput,
  CustomFieldsSchema,
  Described,
  Email,
  Envelope,
  ListEnvelope,
  Name,
  Nullable,
  Password,
  PastTimestamp,
  RecordId,
  TagsInput,
  Text,
  UpdatedAt,
} from '../shared/index.js';

/** Output: never the password (nor its hash). */
export const Customer = Type.Object(
  {
    id: RecordId,
    userName: Type.String({ description: 'the login name, unique in the store' }),
    email: Nullable(Type.String({ description: 'email address, unique in the store; null: none' })),
    firstName: Nullable(Type.String({ description: 'first name; null: none' })),
    lastName: Nullable(Type.String({ description: 'last name; null: none' })),
    businessName: Nullable(Type.String({ description: 'company name; null: none' })),
    phoneNumber: Nullable(Type.String({ description: 'phone number, as given; null: none' })),
    role: Type.String({ description: 'always "user" for a customer created through the API; read-only' }),
    customFields: CustomFieldsSchema,
    tags: Type.Array(Type.String(), {
      description: 'free labels, unique case-insensitively, as products have them; price lists select buyers by them; [] when none',
    }),
    createdAt: CreatedAt,
    updatedAt: UpdatedAt,
  },
  { title: 'Customer', description: 'a customer account of the store (never its password)' },
);
export type Customer = Static<typeof Customer>;

/** The profile fields a caller may set on create and change with PATCH (CONTRACT §7). */
const profileFields = {
  email: Type.Optional(Nullable(Described(Email, 'email address, unique in the store (case-insensitively), at most 320 characters'))),
  firstName: Type.Optional(Nullable(Described(Text(255), 'first name, at most 255 characters'))),
  lastName: Type.Optional(Nullable(Described(Text(255), 'last name, at most 255 characters'))),
  businessName: Type.Optional(Nullable(Described(Text(255), 'company name, at most 255 characters'))),
  phoneNumber: Type.Optional(Nullable(Described(Text(64), 'phone number, at most 64 characters'))),
  customFields: CustomFieldsInput,
  tags: Type.Optional(TagsInput),
};

export const CreateCustomerBody = Body({
  userName: Described(Name(), 'the login name, unique in the store, 1 to 255 characters'),
  password: Described(Password, 'the password, 8 to 256 characters; stored hashed, never answered'),
  ...profileFields,
  address: Type.Optional(AddressBody),
  createdAt: Type.Optional(PastTimestamp),
});
export const UpdateCustomerBody = Body({
  ...profileFields,
  // Beyond SPEC, for migration (CONTRACT §7): a customer imported without a password is given one.
  password: Type.Optional(Described(Password, 'a new password, 8 to 256 characters; stored hashed, never answered')),
});
export type CreateCustomerInput = Static<typeof CreateCustomerBody>;
export type UpdateCustomerInput = Static<typeof UpdateCustomerBody>;

// SPEC lists no sort values for customers; creation time (the default of every list) is offered.
export const CUSTOMER_SORTS = ['createdAt'] as const;
export const CustomerListQuery = ListQuery(CUSTOMER_SORTS, {});
export type CustomerListQuery = Static<typeof CustomerListQuery>;

export const CustomerEnvelope = Envelope(Customer);
export const CustomerListEnvelope = ListEnvelope(Customer);
