import { type Static, Type } from '@sinclair/typebox';
import { Body, Envelope, ListEnvelope, ListQuery, Name, StringEnum, Timestamp } from '../shared/index.js';

export const ATTRIBUTE_SET_STATUSES = ['active', 'inactive'] as const;
const Status = StringEnum(ATTRIBUTE_SET_STATUSES);

export const AttributeSet = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    status: Type.String(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'AttributeSet' },
);
export type AttributeSet = Static<typeof AttributeSet>;

export const CreateAttributeSetBody = Body({ name: Name(), status: Type.Optional(Status) });
export const UpdateAttributeSetBody = Body({ name: Type.Optional(Name()), status: Type.Optional(Status) });
export type CreateAttributeSetInput = Static<typeof CreateAttributeSetBody>;
export type UpdateAttributeSetInput = Static<typeof UpdateAttributeSetBody>;

export const ATTRIBUTE_SET_SORTS = ['createdAt', 'name'] as const;
export const AttributeSetListQuery = ListQuery(ATTRIBUTE_SET_SORTS, { status: Type.Optional(Status) });
export type AttributeSetListQuery = Static<typeof AttributeSetListQuery>;

export const AttributeSetEnvelope = Envelope(AttributeSet);
export const AttributeSetListEnvelope = ListEnvelope(AttributeSet);
