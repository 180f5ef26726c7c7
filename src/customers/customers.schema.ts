import { type Static, Type } from '@sinclair/typebox';
import { AddressBody } from '../addresses/index.js';
import {
  Body,
  Email,
  Envelope,
  ListEnvelope,
  ListQuery,
  Name,
  Nullable,
  Password,
  PastTimestamp,
  Text,
  Timestamp,
} from '../shared/index.js';

/** Output: never the password (nor its hash). */
export const Customer = Type.Object(
  {
    id: Type.String(),
    userName: Type.String(),
    email: Nullable(Type.String()),
    firstName: Nullable(Type.String()),
    lastName: Nullable(Type.String()),
    businessName: Nullable(Type.String()),
    phoneNumber: Nullable(Type.String()),
    role: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Customer' },
);
export type Customer = Static<typeof Customer>;

/** The profile fields a caller may set on create and change with PATCH (CONTRACT §7). */
const profileFields = {
  email: Type.Optional(Nullable(Email)),
  firstName: Type.Optional(Nullable(Text(255))),
  lastName: Type.Optional(Nullable(Text(255))),
  businessName: Type.Optional(Nullable(Text(255))),
  phoneNumber: Type.Optional(Nullable(Text(64))),
};

export const CreateCustomerBody = Body({
  userName: Name(),
  password: Password,
  ...profileFields,
  address: Type.Optional(AddressBody),
  createdAt: Type.Optional(PastTimestamp),
});
export const UpdateCustomerBody = Body(profileFields);
export type CreateCustomerInput = Static<typeof CreateCustomerBody>;
export type UpdateCustomerInput = Static<typeof UpdateCustomerBody>;

// SPEC lists no sort values for customers; creation time (the default of every list) is offered.
export const CUSTOMER_SORTS = ['createdAt'] as const;
export const CustomerListQuery = ListQuery(CUSTOMER_SORTS, {});
export type CustomerListQuery = Static<typeof CustomerListQuery>;

export const CustomerEnvelope = Envelope(Customer);
export const CustomerListEnvelope = ListEnvelope(Customer);
