import { type Static, Type } from '@sinclair/typebox';
import { Body, Envelope, ListEnvelope, ListQuery, Name, Nullable, StringEnum, Text, Timestamp } from '../shared/index.js';

/** Smart-collection rules: what a condition may name (compiled to SQL by rules.ts). */
export const MATCH_TYPES = ['all condition', 'any condition'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

export const TEXT_FIELDS = ['title', 'handle', 'status', 'badge', 'sku'] as const;
export const NUMERIC_FIELDS = ['price', 'comparePrice', 'totalStock'] as const;
export const CONDITION_FIELDS = ['title', 'handle', 'status', 'badge', 'price', 'comparePrice', 'totalStock', 'sku'] as const;
export type ConditionField = (typeof CONDITION_FIELDS)[number];

export const TEXT_OPERATORS = ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'ends_with'] as const;
export const NUMERIC_OPERATORS = ['equals', 'not_equals', 'greater_than', 'less_than'] as const;
export const CONDITION_OPERATORS = [...TEXT_OPERATORS, 'greater_than', 'less_than'] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export const COLLECTION_TYPES = ['manual', 'smart'] as const;
export type CollectionType = (typeof COLLECTION_TYPES)[number];

export const MAX_CONDITIONS = 100;
export const MAX_SELECTED_PRODUCTS = 10_000;

const Condition = Type.Object({ field: Type.String(), operator: Type.String(), value: Type.String() }, { title: 'CollectionCondition' });

export const Collection = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    handle: Type.String(),
    description: Nullable(Type.String()),
    image: Nullable(Type.String()),
    collectionType: StringEnum(COLLECTION_TYPES),
    selectedProducts: Type.Array(Type.String(), { description: 'ids of the member products of a manual collection ([] when smart)' }),
    parentCollection: Nullable(Type.String()),
    childCollection: Type.Array(Type.String(), { description: 'ids of the collections whose parentCollection is this one' }),
    matchType: Nullable(StringEnum(MATCH_TYPES, { description: 'null for a manual collection' })),
    conditions: Type.Array(Condition, { description: '[] for a manual collection' }),
    metaTitle: Nullable(Type.String()),
    metaDescription: Nullable(Type.String()),
    metaKeywords: Nullable(Type.String()),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Collection' },
);
export type Collection = Static<typeof Collection>;

// Typed as plain strings for callers of the service (seeders, imports): conditionErrors checks
// every rule again, so a rule that did not come through HTTP validation is still refused.
const ConditionInput = Body(
  {
    field: Type.Unsafe<string>(StringEnum(CONDITION_FIELDS)),
    operator: Type.Unsafe<string>(
      StringEnum(CONDITION_OPERATORS, {
        description: 'greater_than and less_than only on price, comparePrice, totalStock; those take no text operators',
      }),
    ),
    value: Type.String({ minLength: 1, maxLength: 255, description: 'a number, as a string, for price, comparePrice, totalStock' }),
  },
  { title: 'CollectionConditionInput' },
);

const ReferenceId = Type.String({ maxLength: 64 });

/** Every field but the title is optional on create and on update. */
const optionalFields = {
  handle: Type.Optional(Type.String({ maxLength: 255, description: 'slugified; generated from the title when omitted on create' })),
  description: Type.Optional(Nullable(Text(100_000))),
  image: Type.Optional(
    Nullable(Type.String({ description: 'an http(s) URL (kept as given) or a base64 data URI of an image (stored, replaced by its URL)' })),
  ),
  collectionType: Type.Optional(StringEnum(COLLECTION_TYPES)),
  selectedProducts: Type.Optional(Type.Array(ReferenceId, { maxItems: MAX_SELECTED_PRODUCTS, description: 'manual collections only' })),
  parentCollection: Type.Optional(Nullable(ReferenceId)),
  matchType: Type.Optional(Nullable(StringEnum(MATCH_TYPES, { description: "smart collections only; default 'all condition'" }))),
  conditions: Type.Optional(Type.Array(ConditionInput, { maxItems: MAX_CONDITIONS, description: 'smart collections only; at least one' })),
  metaTitle: Type.Optional(Nullable(Text(1000))),
  metaDescription: Type.Optional(Nullable(Text(5000))),
  metaKeywords: Type.Optional(Nullable(Text(5000))),
};

export const CreateCollectionBody = Body({ title: Name(), ...optionalFields });
export const UpdateCollectionBody = Body({ title: Type.Optional(Name()), ...optionalFields });
export type CreateCollectionInput = Static<typeof CreateCollectionBody>;
export type UpdateCollectionInput = Static<typeof UpdateCollectionBody>;

export const COLLECTION_SORTS = ['createdAt', 'title'] as const;
export const CollectionListQuery = ListQuery(COLLECTION_SORTS, {});
export type CollectionListQuery = Static<typeof CollectionListQuery>;

export const CollectionEnvelope = Envelope(Collection);
export const CollectionListEnvelope = ListEnvelope(Collection);
