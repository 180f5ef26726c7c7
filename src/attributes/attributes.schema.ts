import { type Static, Type } from '@sinclair/typebox';
import { ListQuery } from '../reads/index.js';
import { Body, CreatedAt, Described, Envelope, ListEnvelope, Name, Nullable, RecordId, StringEnum, UpdatedAt } from '../shared/index.js';

export const AttributeValue = Type.Object(
  {
    id: RecordId,
    attribute: Type.String({ description: 'the identifier of the attribute it is a value of' }),
    name: Type.String({ description: 'the value as shown, as "Red"' }),
    value: Type.String({ description: 'the value as stored (the name it was created with)' }),
    hex: Nullable(Type.String({ description: 'a color-swatch code, as "#ff0000"; null: none' })),
    status: Type.String({ description: '`active`, or `inactive` once the attribute no longer lists it' }),
    createdAt: CreatedAt,
  },
  { title: 'AttributeValue', description: 'one value of an attribute' },
);
export type AttributeValue = Static<typeof AttributeValue>;

export const Attribute = Type.Object(
  {
    id: RecordId,
    name: Type.String({ description: 'the attribute, as "Color"' }),
    attributeset: Nullable(Type.String({ description: 'the identifier of the attribute set it belongs to; null: none' })),
    values: Type.Array(Type.Union([Type.String(), AttributeValue]), {
      description: 'AttributeValue ids, or the objects with ?expand=values',
    }),
    createdAt: CreatedAt,
    updatedAt: UpdatedAt,
  },
  { title: 'Attribute', description: 'a property products of a kind have (Color, Material), with its values' },
);
export type Attribute = Static<typeof Attribute>;

export const MAX_VALUES = 1000;
const ValueNames = Type.Array(Name(255), {
  maxItems: MAX_VALUES,
  description: `the names of its values, at most ${MAX_VALUES}, each 1 to 255 characters; the list replaces the current one (a value left out becomes inactive)`,
});
const AttributeName = Described(Name(), 'the attribute, as "Color", 1 to 255 characters');
const AttributeSetRef = Type.String({ maxLength: 64, description: 'the identifier of an attribute set of this store; null: none' });

export const CreateAttributeBody = Body({
  name: AttributeName,
  attributeset: Type.Optional(Nullable(AttributeSetRef)),
  values: Type.Optional(ValueNames),
});
export const UpdateAttributeBody = Body({
  name: Type.Optional(AttributeName),
  attributeset: Type.Optional(Nullable(AttributeSetRef)),
  values: Type.Optional(ValueNames),
});
export type CreateAttributeInput = Static<typeof CreateAttributeBody>;
export type UpdateAttributeInput = Static<typeof UpdateAttributeBody>;

const Expand = StringEnum(['values'], { description: '`values`: each attribute with its values (else without them)' });
export const ExpandQuery = Type.Object({ expand: Type.Optional(Expand) });
export const ATTRIBUTE_SORTS = ['createdAt', 'name'] as const;
export const AttributeListQuery = ListQuery(ATTRIBUTE_SORTS, { expand: Type.Optional(Expand) });
export type AttributeListQuery = Static<typeof AttributeListQuery>;

export const AttributeEnvelope = Envelope(Attribute);
export const AttributeListEnvelope = ListEnvelope(Attribute);
