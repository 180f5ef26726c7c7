import { type Static, Type } from '@sinclair/typebox';
import { ListQuery } from '../reads/index.js';
import { Body, CreatedAt, Described, Envelope, ListEnvelope, Name, RecordId, StringEnum, UpdatedAt } from '../shared/index.js';

export const ATTRIBUTE_SET_STATUSES = ['active', 'inactive'] as const;
const Status = StringEnum(ATTRIBUTE_SET_STATUSES);

export const AttributeSet = Type.Object(
  {
    id: RecordId,
    name: Type.String({ description: 'the kind of product it describes, as "Apparel"' }),
    status: Type.String({ description: '`active` (the default) or `inactive`' }),
    createdAt: CreatedAt,
    updatedAt: UpdatedAt,
  },
  { title: 'AttributeSet', description: 'a named group of attributes for one kind of product' },
);
export type AttributeSet = Static<typeof AttributeSet>;

const SetName = Described(Name(), 'the name, 1 to 255 characters, not blank');
const SetStatus = Described(Status, '`active` (the default on create) or `inactive`');
export const CreateAttributeSetBody = Body({ name: SetName, status: Type.Optional(SetStatus) });
export const UpdateAttributeSetBody = Body({ name: Type.Optional(SetName), status: Type.Optional(SetStatus) });
export type CreateAttributeSetInput = Static<typeof CreateAttributeSetBody>;
export type UpdateAttributeSetInput = Static<typeof UpdateAttributeSetBody>;

export const ATTRIBUTE_SET_SORTS = ['createdAt', 'name'] as const;
export const AttributeSetListQuery = ListQuery(ATTRIBUTE_SET_SORTS, {
  status: Type.Optional(Described(Status, 'only attribute sets with this status: `active` or `inactive`')),
});
export type AttributeSetListQuery = Static<typeof AttributeSetListQuery>;

export const AttributeSetEnvelope = Envelope(AttributeSet);
export const AttributeSetListEnvelope = ListEnvelope(AttributeSet);
