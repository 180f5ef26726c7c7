import { type Static, Type } from '@sinclair/typebox';
import { ListQuery } from '../reads/index.js';
import {
  Body,
  CreatedAt,
  CustomFieldsInput,
  CustomFieldsSchema,
  Described,
  Envelope,
  ListEnvelope,
  Name,
  Nullable,
  RecordId,
  StringEnum,
  Text,
  UpdatedAt,
} from '../shared/index.js';

/** Smart-collection rules: what a condition may name (compiled to SQL by rules.sql.ts). */
export const MATCH_TYPES = ['all condition', 'any condition'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

export const TEXT_FIELDS = ['title', 'handle', 'status', 'badge', 'sku', 'vendor', 'productType'] as const;
export const NUMERIC_FIELDS = ['price', 'comparePrice', 'totalStock'] as const;
/** `tag`: the product has (equals) or has not (not_equals) that tag, case-insensitively. */
export const TAG_FIELDS = ['tag'] as const;
export const TAG_OPERATORS = ['equals', 'not_equals'] as const;
export const CONDITION_FIELDS = [
  'title',
  'handle',
  'status',
  'badge',
  'price',
  'comparePrice',
  'totalStock',
  'sku',
  'vendor',
  'productType',
  'tag',
] as const;

export const TEXT_OPERATORS = ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'ends_with'] as const;
export const NUMERIC_OPERATORS = ['equals', 'not_equals', 'greater_than', 'less_than'] as const;
export const CONDITION_OPERATORS = [...TEXT_OPERATORS, 'greater_than', 'less_than'] as const;

export const COLLECTION_TYPES = ['manual', 'smart'] as const;
export type CollectionType = (typeof COLLECTION_TYPES)[number];

export const MAX_CONDITIONS = 100;
export const MAX_SELECTED_PRODUCTS = 10_000;

const Condition = Type.Object(
  {
    field: Type.String({ description: 'the product field compared, as "price" or "tag"' }),
    operator: Type.String({ description: 'how it is compared, as "equals" or "greater_than"' }),
    value: Type.String({ description: 'what it is compared with (a number as a string for a numeric field)' }),
  },
  { title: 'CollectionCondition', description: 'one rule a product must meet to be in a smart collection' },
);

export const Collection = Type.Object(
  {
    id: RecordId,
    title: Type.String({ description: 'the collection name (1 to 255 characters)' }),
    handle: Type.String({ description: 'URL slug (generated from the title when not given)' }),
    description: Nullable(Type.String({ description: 'text or HTML; null: none' })),
    image: Nullable(Type.String({ description: 'the URL of its image; null: none' })),
    collectionType: StringEnum(COLLECTION_TYPES, {
      description:
        '`manual` (members listed in selectedProducts; the default) or `smart` (members are the products meeting its conditions)',
    }),
    selectedProducts: Type.Array(Type.String(), { description: 'ids of the member products of a manual collection ([] when smart)' }),
    parentCollection: Nullable(Type.String({ description: 'the identifier of the parent collection; null: a top-level collection' })),
    childCollection: Type.Array(Type.String(), { description: 'ids of the collections whose parentCollection is this one' }),
    matchType: Nullable(StringEnum(MATCH_TYPES, { description: 'null for a manual collection' })),
    conditions: Type.Array(Condition, { description: '[] for a manual collection' }),
    metaTitle: Nullable(Type.String({ description: 'page title for search engines; null: none' })),
    metaDescription: Nullable(Type.String({ description: 'description for search engines; null: none' })),
    metaKeywords: Nullable(Type.String({ description: 'keywords for search engines; null: none' })),
    customFields: CustomFieldsSchema,
    createdAt: CreatedAt,
    updatedAt: UpdatedAt,
  },
  { title: 'Collection', description: 'a group of products: listed by hand (manual) or matched by rules (smart)' },
);
export type Collection = Static<typeof Collection>;

// Typed as plain strings for callers of the service (seeders, imports): conditionErrors checks
// every rule again, so a rule that did not come through HTTP validation is still refused.
const ConditionInput = Body(
  {
    field: Type.Unsafe<string>(StringEnum(CONDITION_FIELDS, { description: 'the product field compared' })),
    operator: Type.Unsafe<string>(
      StringEnum(CONDITION_OPERATORS, {
        description:
          'greater_than and less_than only on price, comparePrice, totalStock; those take no text operators; tag takes equals (has the tag) and not_equals (has not)',
      }),
    ),
    value: Type.String({ minLength: 1, maxLength: 255, description: 'a number, as a string, for price, comparePrice, totalStock' }),
  },
  { title: 'CollectionConditionInput', description: 'one rule a product must meet' },
);

const ReferenceId = Type.String({ maxLength: 64 });

/** Every field but the title is optional on create and on update. */
const optionalFields = {
  handle: Type.Optional(Type.String({ maxLength: 255, description: 'slugified; generated from the title when omitted on create' })),
  description: Type.Optional(Nullable(Described(Text(100_000), 'text or HTML, at most 100,000 characters'))),
  image: Type.Optional(
    Nullable(Type.String({ description: 'an http(s) URL (kept as given) or a base64 data URI of an image (stored, replaced by its URL)' })),
  ),
  collectionType: Type.Optional(StringEnum(COLLECTION_TYPES, { description: '`manual` (the default) or `smart`' })),
  selectedProducts: Type.Optional(Type.Array(ReferenceId, { maxItems: MAX_SELECTED_PRODUCTS, description: 'manual collections only' })),
  parentCollection: Type.Optional(
    Nullable(Described(ReferenceId, 'the identifier of another collection of this store, its parent (no cycle); null: top level')),
  ),
  matchType: Type.Optional(Nullable(StringEnum(MATCH_TYPES, { description: "smart collections only; default 'all condition'" }))),
  conditions: Type.Optional(Type.Array(ConditionInput, { maxItems: MAX_CONDITIONS, description: 'smart collections only; at least one' })),
  metaTitle: Type.Optional(Nullable(Described(Text(1000), 'page title for search engines, at most 1,000 characters'))),
  metaDescription: Type.Optional(Nullable(Described(Text(5000), 'description for search engines, at most 5,000 characters'))),
  metaKeywords: Type.Optional(Nullable(Described(Text(5000), 'keywords for search engines, at most 5,000 characters'))),
  customFields: CustomFieldsInput,
};

const Title = Described(Name(), 'the collection name, 1 to 255 characters, not blank');
export const CreateCollectionBody = Body({ title: Title, ...optionalFields });
export const UpdateCollectionBody = Body({ title: Type.Optional(Title), ...optionalFields });
export type CreateCollectionInput = Static<typeof CreateCollectionBody>;
export type UpdateCollectionInput = Static<typeof UpdateCollectionBody>;

export const COLLECTION_SORTS = ['createdAt', 'title'] as const;
export const CollectionListQuery = ListQuery(COLLECTION_SORTS, {});
export type CollectionListQuery = Static<typeof CollectionListQuery>;

export const CollectionEnvelope = Envelope(Collection);
export const CollectionListEnvelope = ListEnvelope(Collection);
