import { type Static, Type } from '@sinclair/typebox';
import { Body, Envelope, ListEnvelope, ListQuery, Name, Nullable, StringEnum, Timestamp } from '../shared/index.js';

export const AttributeValue = Type.Object(
  {
    id: Type.String(),
    attribute: Type.String(),
    name: Type.String(),
    value: Type.String(),
    hex: Nullable(Type.String()),
    status: Type.String(),
    createdAt: Timestamp,
  },
  { title: 'AttributeValue' },
);
export type AttributeValue = Static<typeof AttributeValue>;

export const Attribute = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    attributeset: Nullable(Type.String()),
    values: Type.Array(Type.Union([Type.String(), AttributeValue]), {
      description: 'AttributeValue ids, or the objects with ?expand=values',
    }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Attribute' },
);
export type Attribute = Static<typeof Attribute>;

export const MAX_VALUES = 1000;
const ValueNames = Type.Array(Name(255), { maxItems: MAX_VALUES });

export const CreateAttributeBody = Body({
  name: Name(),
  attributeset: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  values: Type.Optional(ValueNames),
});
export const UpdateAttributeBody = Body({
  name: Type.Optional(Name()),
  attributeset: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  values: Type.Optional(ValueNames),
});
export type CreateAttributeInput = Static<typeof CreateAttributeBody>;
export type UpdateAttributeInput = Static<typeof UpdateAttributeBody>;

export const ExpandQuery = Type.Object({ expand: Type.Optional(StringEnum(['values'])) });
export const ATTRIBUTE_SORTS = ['createdAt', 'name'] as const;
export const AttributeListQuery = ListQuery(ATTRIBUTE_SORTS, { expand: Type.Optional(StringEnum(['values'])) });
export type AttributeListQuery = Static<typeof AttributeListQuery>;

export const AttributeEnvelope = Envelope(Attribute);
export const AttributeListEnvelope = ListEnvelope(Attribute);
