import { type Static, Type } from '@sinclair/typebox';
import {
  Alias,
  Body,
  Envelope,
  ID_PATTERN,
  ListEnvelope,
  ListQuery,
  Money,
  Name,
  Nullable,
  StringEnum,
  Text,
  Timestamp,
} from '../shared/index.js';

export const PRODUCT_STATUSES = ['active', 'disabled'] as const;
const Status = StringEnum(PRODUCT_STATUSES);

/** Stock counts fit PostgreSQL `integer`. */
const Stock = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
const Reference = Type.String({ maxLength: 64 });
const ShortText = Type.String({ maxLength: 255 });

// Product outputs list their fields in sorted order: the order their stored documents (canonical JSON) have,
// so every answer about a record has the same key order (src/products/products.sql.ts).
export const ReturnConfig = Type.Object(
  {
    customReturnWindow: Nullable(Type.Integer({ description: 'days; overrides the store setting when useGlobalConfig is false' })),
    exchangeable: Type.Boolean(),
    returnable: Type.Boolean(),
    useGlobalConfig: Type.Boolean(),
  },
  { title: 'ReturnConfig' },
);
export type ReturnConfig = Static<typeof ReturnConfig>;

export const ProductOption = Type.Object({ name: Type.String(), values: Type.Array(Type.String()) }, { title: 'ProductOption' });

export const Variant = Type.Object(
  {
    attributes: Type.Record(Type.String(), Type.String(), { description: 'option name -> value' }),
    createdAt: Timestamp,
    id: Type.String(),
    price: Nullable(Type.Number()),
    productId: Type.String(),
    salePrice: Nullable(Type.Number({ description: 'compare-at price' })),
    sku: Nullable(Type.String()),
    stock: Type.Integer(),
    updatedAt: Timestamp,
  },
  { title: 'Variant' },
);
export type Variant = Static<typeof Variant>;

export const Product = Type.Object(
  {
    attributeSet: Nullable(Type.String()),
    averageRating: Type.Number(),
    badge: Nullable(Type.String()),
    comparePrice: Nullable(Type.Number()),
    createdAt: Timestamp,
    description: Nullable(Type.String()),
    handle: Type.String(),
    id: Type.String(),
    image: Type.Array(Type.String(), { description: 'image URLs (input name: images)' }),
    metaDescription: Nullable(Type.String()),
    metaKeywords: Nullable(Type.String()),
    metaTitle: Nullable(Type.String()),
    options: Type.Array(ProductOption),
    price: Nullable(Type.Number()),
    returnConfig: ReturnConfig,
    salePrice: Nullable(Type.Number({ description: 'the compare-at price (same as comparePrice)' })),
    selectedCollection: Type.Array(Type.String(), { description: 'manual collection ids (input name: selectedCollections)' }),
    sizeChart: Nullable(Type.String()),
    status: Type.String(),
    title: Type.String(),
    totalReviews: Type.Integer(),
    totalStock: Nullable(Type.Integer()),
    updatedAt: Timestamp,
    variants: Type.Array(Variant),
  },
  { title: 'Product' },
);
export type Product = Static<typeof Product>;

/** Value checks beyond the schema (non-empty after trim, uniqueness, the 2048 cap) are in options.ts. */
export const OptionInput = Body(
  {
    name: Name(255),
    values: Type.Array(Name(255), { minItems: 1, maxItems: 2048 }),
  },
  { title: 'ProductOptionInput' },
);
export type OptionInput = Static<typeof OptionInput>;

const ReturnConfigInput = Body(
  {
    useGlobalConfig: Type.Optional(Type.Boolean()),
    returnable: Type.Optional(Type.Boolean()),
    exchangeable: Type.Optional(Type.Boolean()),
    customReturnWindow: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 36_500 }))),
  },
  { title: 'ReturnConfigInput' },
);

/** What a client sets on a variant (PATCH /products/{id}/variants/{variantId}, and `variants` of a product write). */
const VariantFields = {
  price: Type.Optional(Nullable(Money)),
  salePrice: Type.Optional(Nullable(Money)),
  stock: Type.Optional(Stock),
  sku: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
};

/** One entry of `variants`: applied to the variant whose attributes equal `attributes` (names case-insensitive, values exact). */
const VariantEntryInput = Body(
  {
    attributes: Type.Record(Type.String({ maxLength: 255 }), Type.String({ maxLength: 255 }), { maxProperties: 100 }),
    ...VariantFields,
  },
  { title: 'VariantEntry' },
);
export type VariantEntryInput = Static<typeof VariantEntryInput>;

/** Fields shared by create and update; every nullable one can be cleared with null. */
const ProductFields = {
  handle: Type.Optional(Type.String({ maxLength: 255, description: 'slugified; generated from the title when omitted' })),
  description: Type.Optional(Nullable(Text(100_000))),
  status: Type.Optional(Status),
  badge: Type.Optional(Nullable(ShortText)),
  price: Type.Optional(Nullable(Money)),
  comparePrice: Type.Optional(Nullable(Money)),
  salePrice: Type.Optional(Nullable({ ...Money, description: 'alias of comparePrice' })),
  totalStock: Type.Optional(Nullable(Stock)),
  images: Type.Optional(Type.Array(Type.String(), { maxItems: 10_000, description: 'http(s) URLs or base64 data URIs' })),
  image: Alias('images', Type.Array(Type.String())),
  sizeChart: Type.Optional(Nullable(Type.String({ description: 'http(s) URL or base64 data URI (image or PDF)' }))),
  selectedCollections: Type.Optional(Type.Array(Reference, { maxItems: 1000 })),
  selectedCollection: Alias('selectedCollections', Type.Array(Reference)),
  attributeSet: Type.Optional(Nullable(Reference)),
  options: Type.Optional(Type.Array(OptionInput, { maxItems: 100 })),
  variants: Type.Optional(
    Type.Array(VariantEntryInput, {
      maxItems: 2048,
      description: 'price, salePrice, stock and sku of the variants the options generate (or keep), matched by attributes',
    }),
  ),
  metaTitle: Type.Optional(Nullable(Text(1000))),
  metaDescription: Type.Optional(Nullable(Text(5000))),
  metaKeywords: Type.Optional(Nullable(Text(5000))),
  returnConfig: Type.Optional(ReturnConfigInput),
};

export const CreateProductBody = Body({ title: Name(), ...ProductFields });
export const UpdateProductBody = Body({ title: Type.Optional(Name()), ...ProductFields });
export type CreateProductInput = Static<typeof CreateProductBody>;
export type UpdateProductInput = Static<typeof UpdateProductBody>;

export const UpdateVariantBody = Body(VariantFields);
export type UpdateVariantInput = Static<typeof UpdateVariantBody>;

export const VariantParams = Type.Object({
  id: Type.String({ pattern: ID_PATTERN }),
  variantId: Type.String({ pattern: ID_PATTERN }),
});

export const PRODUCT_SORTS = ['createdAt', 'price', 'title'] as const;
export const ProductListQuery = ListQuery(PRODUCT_SORTS, {
  handle: Type.Optional(ShortText),
  status: Type.Optional(Status),
  collection: Type.Optional(Type.String({ maxLength: 64, description: 'a collection id: its members, manual or smart' })),
});
export type ProductListQuery = Static<typeof ProductListQuery>;

/** The query of GET /collections/{id}/products: GET /products' page, limit, sort, search, without its filters. */
export const CollectionProductsQuery = ListQuery(PRODUCT_SORTS, {});
export type CollectionProductsQuery = Static<typeof CollectionProductsQuery>;

/** GET /products/{id}/variants: a list like any other; by default in the order the options generate them. */
export const VARIANT_SORTS = ['createdAt', 'position'] as const;
export const VariantListQuery = ListQuery(VARIANT_SORTS, {}, 'position');
export type VariantListQuery = Static<typeof VariantListQuery>;

export const ProductEnvelope = Envelope(Product);
export const ProductListEnvelope = ListEnvelope(Product);
export const VariantEnvelope = Envelope(Variant);
export const VariantListEnvelope = ListEnvelope(Variant);
