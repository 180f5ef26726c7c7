import { type Static, Type } from '@sinclair/typebox';
import { ResolvedPrice } from '../price-lists/index.js';
import { ListQuery } from '../reads/index.js';
import {
  Alias,
  Body,
  CreatedAt,
  CustomFieldsInput,
  CustomFieldsSchema,
  Described,
  Envelope,
  ListEnvelope,
  MAX_TAGS,
  Money,
  Name,
  Nullable,
  PathId,
  RecordId,
  StringEnum,
  Text,
  UpdatedAt,
} from '../shared/index.js';

export const PRODUCT_STATUSES = ['active', 'disabled'] as const;
const Status = StringEnum(PRODUCT_STATUSES);

/** Stock counts fit PostgreSQL `integer`. */
const Stock = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });
const Reference = Type.String({ maxLength: 64 });
const ShortText = Type.String({ maxLength: 255 });
/** Grams, as a number (fractions allowed: a weight in kilograms or ounces converts to one). */
const Grams = Type.Number({ minimum: 0, maximum: 1e9 });

export { MAX_TAGS };

// Product outputs list their fields in sorted order: the order their stored documents (canonical JSON) have,
// so every answer about a record has the same key order (src/products/products.sql.ts).
export const ReturnConfig = Type.Object(
  {
    customReturnWindow: Nullable(Type.Integer({ description: 'days; overrides the store setting when useGlobalConfig is false' })),
    exchangeable: Type.Boolean({ description: 'whether the product may be exchanged (default true)' }),
    returnable: Type.Boolean({ description: 'whether the product may be returned (default true)' }),
    useGlobalConfig: Type.Boolean({
      description: "true (the default): the store's return settings apply and the other fields are informative",
    }),
  },
  { title: 'ReturnConfig', description: 'how the product may be returned or exchanged' },
);
export type ReturnConfig = Static<typeof ReturnConfig>;

export const ProductOption = Type.Object(
  {
    name: Type.String({ description: 'the option, as "Size" or "Color"' }),
    values: Type.Array(Type.String(), { description: 'its values, in the order variants are generated' }),
  },
  { title: 'ProductOption', description: 'an option the product comes in; its values combine into the variants' },
);

/**
 * `resolvedPrice` (CONTRACT §14) is there only on GET /products/{id} with `currency` or `customerId`: on each
 * variant, or on a simple product itself. A titled schema is one OpenAPI component, so it keeps its own words.
 */
const PricedHere = ResolvedPrice;

export const Variant = Type.Object(
  {
    attributes: Type.Record(Type.String(), Type.String(), { description: 'option name -> value' }),
    barcode: Nullable(Type.String({ description: 'GTIN, EAN, UPC, ISBN, …' })),
    createdAt: CreatedAt,
    customFields: CustomFieldsSchema,
    id: RecordId,
    image: Nullable(Type.String({ description: 'the URL of the image of this variant' })),
    price: Nullable(
      Type.Number({ description: "the variant's price, in major units of the store's currency (24.9 is 24.90); null: none set" }),
    ),
    productId: Type.String({ description: 'the identifier of the product the variant belongs to; read-only' }),
    salePrice: Nullable(Type.Number({ description: 'compare-at price (the strike-through price), in major units; null: none' })),
    sku: Nullable(Type.String({ description: 'stock keeping unit, unique per store; null: none' })),
    stock: Type.Integer({
      description:
        "units in stock: the sum of its inventory levels over the active locations (0 when never set; below 0 only after an adjust with allowNegative); writing it sets the default location's level (docs/locations.md)",
    }),
    updatedAt: UpdatedAt,
    weightGrams: Nullable(Type.Number({ description: 'shipping weight in grams (fractions allowed); null: none' })),
    resolvedPrice: Type.Optional(PricedHere),
  },
  { title: 'Variant', description: 'one combination of option values of a product (M / Black), with its own price and stock' },
);
export type Variant = Static<typeof Variant>;

export const Product = Type.Object(
  {
    attributeSet: Nullable(Type.String({ description: 'the identifier of the attribute set describing this kind of product; null: none' })),
    averageRating: Type.Number({ description: 'average review rating, 0 to 5 (0 when there is no review); read-only' }),
    badge: Nullable(
      Type.String({ description: 'a short label shown on the product, as "New" or "Sale" (at most 255 characters); null: none' }),
    ),
    barcode: Nullable(Type.String({ description: "a simple product's own barcode (null for a product with options)" })),
    comparePrice: Nullable(
      Type.Number({ description: 'compare-at price (the strike-through price), in major units, at least price; null: none' }),
    ),
    createdAt: CreatedAt,
    customFields: CustomFieldsSchema,
    description: Nullable(Type.String({ description: 'the product description (text or HTML, at most 100,000 characters); null: none' })),
    handle: Type.String({ description: 'URL slug, unique in the store (generated from the title when not given)' }),
    id: RecordId,
    image: Type.Array(Type.String(), { description: 'image URLs (input name: images)' }),
    metaDescription: Nullable(Type.String({ description: 'description for search engines (at most 5,000 characters); null: none' })),
    metaKeywords: Nullable(Type.String({ description: 'keywords for search engines (at most 5,000 characters); null: none' })),
    metaTitle: Nullable(Type.String({ description: 'page title for search engines (at most 1,000 characters); null: none' })),
    options: Type.Array(ProductOption, { description: 'the options the product comes in (at most 100); [] for a simple product' }),
    price: Nullable(
      Type.Number({ description: "the price, in major units of the store's currency (24.9 is 24.90), 0 to 10^12; null: none set" }),
    ),
    productType: Nullable(Type.String({ description: 'a free category, as "T-shirts" (at most 255 characters); null: none' })),
    returnConfig: Described(ReturnConfig, 'how the product may be returned or exchanged'),
    salePrice: Nullable(Type.Number({ description: 'the compare-at price (same as comparePrice)' })),
    selectedCollection: Type.Array(Type.String(), { description: 'manual collection ids (input name: selectedCollections)' }),
    sizeChart: Nullable(Type.String({ description: 'the URL of the size chart (an image or a PDF); null: none' })),
    sku: Nullable(Type.String({ description: "a simple product's own SKU (null for a product with options: its variants have theirs)" })),
    status: Type.String({ description: '`active` (sold) or `disabled` (hidden); default active' }),
    tags: Type.Array(Type.String(), { description: 'free labels, unique case-insensitively; [] when none' }),
    title: Type.String({ description: 'the product name (1 to 255 characters, not blank)' }),
    totalReviews: Type.Integer({ description: 'number of reviews (0 when none); read-only' }),
    totalStock: Nullable(
      Type.Integer({
        description:
          "the product's stock (a simple product's: the sum of its inventory levels over the active locations, taken by decrement checkouts; writing it sets the default location's level)",
      }),
    ),
    updatedAt: UpdatedAt,
    variants: Type.Array(Variant, { description: 'the variants the options generate, in their order; [] for a simple product' }),
    vendor: Nullable(Type.String({ description: 'the maker or brand (at most 255 characters); null: none' })),
    weightGrams: Nullable(Type.Number({ description: "a simple product's own weight in grams" })),
    resolvedPrice: Type.Optional(PricedHere),
  },
  { title: 'Product', description: 'a product of the catalog, with its options and variants' },
);
export type Product = Static<typeof Product>;

/** Value checks beyond the schema (non-empty after trim, uniqueness, the 2048 cap) are in options.ts. */
export const OptionInput = Body(
  {
    name: Described(Name(255), 'the option, as "Size" (1 to 255 characters, unique in the product case-insensitively)'),
    values: Type.Array(Name(255), {
      minItems: 1,
      maxItems: 2048,
      description: 'its values, 1 to 2048, each 1 to 255 characters, unique; their order is the order of the variants',
    }),
  },
  { title: 'ProductOptionInput', description: 'an option and its values' },
);
export type OptionInput = Static<typeof OptionInput>;

const ReturnConfigInput = Body(
  {
    useGlobalConfig: Type.Optional(Type.Boolean({ description: "use the store's return settings (default true)" })),
    returnable: Type.Optional(Type.Boolean({ description: 'may be returned (default true)' })),
    exchangeable: Type.Optional(Type.Boolean({ description: 'may be exchanged (default true)' })),
    customReturnWindow: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: 36_500,
          description: 'days to return it in, 0 to 36,500, used when useGlobalConfig is false; null: none',
        }),
      ),
    ),
  },
  { title: 'ReturnConfigInput', description: 'the fields given change; the others keep their value' },
);

/** What a client sets on a variant (PATCH /products/{id}/variants/{variantId}, and `variants` of a product write). */
const VariantFields = {
  price: Type.Optional(Nullable(Described(Money, "the variant's price in major units (24.9 is 24.90), 0 to 10^12; null clears it"))),
  salePrice: Type.Optional(Nullable(Described(Money, 'compare-at (strike-through) price in major units, 0 to 10^12; null clears it'))),
  stock: Type.Optional(Described(Stock, 'units in stock, 0 to 2,147,483,647 (default 0)')),
  sku: Type.Optional(
    Nullable(Type.String({ maxLength: 255, description: 'stock keeping unit, unique per store, at most 255 characters' })),
  ),
  barcode: Type.Optional(Nullable(Described(ShortText, 'GTIN, EAN, UPC, ISBN, … (at most 255 characters)'))),
  weightGrams: Type.Optional(Nullable(Described(Grams, 'shipping weight in grams, 0 to 10^9 (fractions allowed)'))),
  image: Type.Optional(Nullable(Type.String({ description: 'an absolute http(s) URL' }))),
  customFields: CustomFieldsInput,
};

/** One entry of `variants`: applied to the variant whose attributes equal `attributes` (names case-insensitive, values exact). */
const VariantEntryInput = Body(
  {
    attributes: Type.Record(Type.String({ maxLength: 255 }), Type.String({ maxLength: 255 }), {
      maxProperties: 100,
      description: 'option name -> value naming the variant, as {"Size": "M", "Color": "Black"} (names case-insensitive)',
    }),
    ...VariantFields,
  },
  { title: 'VariantEntry', description: 'the fields of one variant, which its attributes name' },
);
export type VariantEntryInput = Static<typeof VariantEntryInput>;

/** Fields shared by create and update; every nullable one can be cleared with null. */
const ProductFields = {
  handle: Type.Optional(Type.String({ maxLength: 255, description: 'slugified; generated from the title when omitted' })),
  description: Type.Optional(Nullable(Described(Text(100_000), 'text or HTML, at most 100,000 characters'))),
  status: Type.Optional(Described(Status, '`active` (sold) or `disabled` (hidden); default active')),
  badge: Type.Optional(Nullable(Described(ShortText, 'a short label shown on the product, as "New" (at most 255 characters)'))),
  price: Type.Optional(Nullable(Described(Money, "the price in major units of the store's currency (24.9 is 24.90), 0 to 10^12"))),
  comparePrice: Type.Optional(
    Nullable(Described(Money, 'compare-at (strike-through) price in major units, 0 to 10^12; must be at least price')),
  ),
  salePrice: Type.Optional(Nullable({ ...Money, description: 'alias of comparePrice' })),
  totalStock: Type.Optional(Nullable(Described(Stock, "a simple product's units in stock, 0 to 2,147,483,647"))),
  images: Type.Optional(Type.Array(Type.String(), { maxItems: 10_000, description: 'http(s) URLs or base64 data URIs' })),
  image: Alias('images', Type.Array(Type.String())),
  sizeChart: Type.Optional(Nullable(Type.String({ description: 'http(s) URL or base64 data URI (image or PDF)' }))),
  selectedCollections: Type.Optional(
    Type.Array(Reference, {
      maxItems: 1000,
      description: 'identifiers of manual collections of this store to put the product in (at most 1000)',
    }),
  ),
  selectedCollection: Alias('selectedCollections', Type.Array(Reference)),
  attributeSet: Type.Optional(Nullable(Described(Reference, 'the identifier of an attribute set of this store'))),
  options: Type.Optional(
    Type.Array(OptionInput, {
      maxItems: 100,
      description:
        'at most 100 options; their values combine into the variants (a change keeps surviving variants and adds only combinations holding a new value)',
    }),
  ),
  variants: Type.Optional(
    Type.Array(VariantEntryInput, {
      maxItems: 2048,
      description: 'price, salePrice, stock and sku of the variants the options generate (or keep), matched by attributes',
    }),
  ),
  variantsExactly: Type.Optional(
    Type.Boolean({
      description:
        'true: the product keeps exactly the combinations `variants` lists (each a combination of the options); the others are not created, or are deleted',
    }),
  ),
  metaTitle: Type.Optional(Nullable(Described(Text(1000), 'page title for search engines, at most 1,000 characters'))),
  metaDescription: Type.Optional(Nullable(Described(Text(5000), 'description for search engines, at most 5,000 characters'))),
  metaKeywords: Type.Optional(Nullable(Described(Text(5000), 'keywords for search engines, at most 5,000 characters'))),
  returnConfig: Type.Optional(ReturnConfigInput),
  vendor: Type.Optional(Nullable(Described(ShortText, 'the maker or brand, at most 255 characters'))),
  productType: Type.Optional(Nullable(Described(ShortText, 'a free category, as "T-shirts", at most 255 characters'))),
  tags: Type.Optional(
    Type.Array(ShortText, {
      maxItems: 1000,
      description: `trimmed, empty ones dropped, unique case-insensitively (the first spelling kept), at most ${MAX_TAGS}`,
    }),
  ),
  sku: Type.Optional(Nullable({ ...ShortText, description: 'only a product without options has its own SKU' })),
  barcode: Type.Optional(Nullable({ ...ShortText, description: 'only a product without options has its own barcode' })),
  weightGrams: Type.Optional(Nullable({ ...Grams, description: 'only a product without options has its own weight' })),
  customFields: CustomFieldsInput,
};

const Title = Described(Name(), 'the product name, 1 to 255 characters, not blank');
export const CreateProductBody = Body({ title: Title, ...ProductFields });
export const UpdateProductBody = Body({ title: Type.Optional(Title), ...ProductFields });
export type CreateProductInput = Static<typeof CreateProductBody>;
export type UpdateProductInput = Static<typeof UpdateProductBody>;

export const UpdateVariantBody = Body(VariantFields);
export type UpdateVariantInput = Static<typeof UpdateVariantBody>;

export const VariantParams = Type.Object({
  id: PathId("the product's identifier"),
  variantId: PathId("the variant's identifier"),
});

export const PRODUCT_SORTS = ['createdAt', 'price', 'title'] as const;
export const ProductListQuery = ListQuery(PRODUCT_SORTS, {
  handle: Type.Optional(Described(ShortText, 'the product with exactly this handle')),
  status: Type.Optional(Described(Status, 'only products with this status: `active` or `disabled`')),
  collection: Type.Optional(Type.String({ maxLength: 64, description: 'a collection id: its members, manual or smart' })),
  vendor: Type.Optional(Type.String({ maxLength: 255, description: 'exact vendor, case-insensitive' })),
  productType: Type.Optional(Type.String({ maxLength: 255, description: 'exact productType, case-insensitive' })),
  tag: Type.Optional(Type.String({ maxLength: 255, description: 'products having this tag (case-insensitive)' })),
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
