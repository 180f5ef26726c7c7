import type { Updateable } from 'kysely';
import type { Config } from '../config.js';
import type { DB, Db } from '../db/index.js';
import { type ErrorDetail, validationError } from '../errors.js';
import { DOCUMENT_OR_IMAGE_TYPES, IMAGE_TYPES, resolveMedia } from '../media/index.js';
import {
  type CustomFields,
  customFieldsDetails,
  type MediaObject,
  type MediaStore,
  mergeCustomFields,
  missingReferences,
  newCustomFields,
  normalizeTags,
  suppliedColumns,
  suppliedSlug,
} from '../shared/index.js';
import { ownFieldDetails, trimmedOrNull } from './catalog-fields.js';
import { normalizeOptions, type ProductOption } from './options.js';
import type { ReturnConfig, UpdateProductInput, VariantEntryInput } from './products.schema.js';
import { DEFAULT_RETURN_CONFIG } from './products.sql.js';

/** What a product write needs besides the database. */
export interface ProductContext {
  media: MediaStore;
  config: Pick<Config, 'mediaMaxBytes' | 'mediaMaxImages'>;
}

/** The stored record a PATCH is merged into (null on create). */
export interface CurrentProduct {
  price: string | null;
  compare_price: string | null;
  return_config: ReturnConfig;
  options: ProductOption[];
  sku: string | null;
  barcode: string | null;
  weight_grams: string | null;
  custom_fields: CustomFields;
}

/** A request checked as a whole and turned into columns; nothing has been written yet. */
export interface PreparedProduct {
  columns: Updateable<DB['products']>;
  /** the merged returnConfig as stored (JSON) */
  returnConfig: string;
  /** the supplied handle, slugified */
  handle?: string;
  options?: ProductOption[];
  /** `variants` entries, applied once the options have made the variants */
  variants?: VariantEntryInput[];
  /** `variantsExactly`: the product keeps only the combinations `variants` lists */
  variantsExactly: boolean;
  /** the options the stored product had (undefined on create): a PATCH adds only combinations with a new value */
  optionsBefore?: ProductOption[];
  /** the merged prices new variants start from */
  price: number | string | null;
  comparePrice: number | string | null;
  /** media bytes to write once the database work has succeeded */
  pending: MediaObject[];
}

const detail = (field: string, message: string): ErrorDetail => ({ field, in: 'body', message });

function merged<T>(given: T | undefined, stored: T): T {
  return given !== undefined ? given : stored;
}

/** `salePrice` is an input alias of `comparePrice`; the merged record must keep comparePrice >= price. */
function checkPrices(input: UpdateProductInput, current: CurrentProduct | null) {
  const details: ErrorDetail[] = [];
  if (input.comparePrice !== undefined && input.salePrice !== undefined && input.comparePrice !== input.salePrice) {
    details.push(detail('salePrice', 'is an alias of comparePrice and must equal it when both are given'));
  }
  const givenCompare = input.comparePrice !== undefined ? input.comparePrice : input.salePrice;
  const price = merged<number | string | null>(input.price, current?.price ?? null);
  const comparePrice = merged<number | string | null>(givenCompare, current?.compare_price ?? null);
  if (price != null && comparePrice != null && Number(comparePrice) < Number(price)) {
    const field = input.comparePrice !== undefined ? 'comparePrice' : input.salePrice !== undefined ? 'salePrice' : 'price';
    details.push(detail(field, 'comparePrice must be greater than or equal to price'));
  }
  return { price, comparePrice, givenCompare, details };
}

function checkHandle(input: UpdateProductInput): { handle?: string; details: ErrorDetail[] } {
  if (input.handle === undefined) return { details: [] };
  const handle = suppliedSlug(input.handle);
  return handle ? { handle, details: [] } : { details: [detail('handle', 'must contain at least one letter or digit')] };
}

function checkMedia(input: UpdateProductInput, ctx: ProductContext) {
  const { mediaMaxBytes, mediaMaxImages } = ctx.config;
  const details: ErrorDetail[] = [];
  if (input.images && input.images.length > mediaMaxImages) details.push(detail('images', `at most ${mediaMaxImages} images per product`));
  const images = resolveMedia(
    ctx.media,
    (input.images ?? []).map((value, index) => ({ field: `images[${index}]`, value })),
    IMAGE_TYPES,
    mediaMaxBytes,
  );
  const sizeChart =
    input.sizeChart != null
      ? resolveMedia(ctx.media, [{ field: 'sizeChart', value: input.sizeChart }], DOCUMENT_OR_IMAGE_TYPES, mediaMaxBytes)
      : null;
  return {
    images: input.images === undefined ? undefined : images.urls,
    sizeChart: input.sizeChart === undefined ? undefined : (sizeChart?.urls[0] ?? null),
    pending: [...images.pending, ...(sizeChart?.pending ?? [])],
    details: [...details, ...images.details, ...(sizeChart?.details ?? [])],
  };
}

/** A null-or-text field a caller clears with an empty string too (vendor, product type). */
const textOrNull = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null);

function optionalColumns(input: UpdateProductInput): Updateable<DB['products']> {
  return suppliedColumns({
    vendor: textOrNull(input.vendor),
    product_type: textOrNull(input.productType),
    sku: trimmedOrNull(input.sku),
    barcode: trimmedOrNull(input.barcode),
    weight_grams: input.weightGrams,
    title: input.title?.trim(),
    description: input.description,
    status: input.status,
    badge: input.badge,
    price: input.price,
    total_stock: input.totalStock,
    attribute_set_id: input.attributeSet,
    meta_title: input.metaTitle,
    meta_description: input.metaDescription,
    meta_keywords: input.metaKeywords,
  });
}

/**
 * The catalog fields of a migration (catalog-fields.ts): tags normalized, a simple product's own fields
 * only without options, custom fields merged into the stored ones (create: nulls dropped) within limits.
 */
function checkCatalog(input: UpdateProductInput, current: CurrentProduct | null, options: ProductOption[] | undefined) {
  const tags = normalizeTags(input.tags);
  const hasOptions = (options ?? current?.options ?? []).length > 0;
  const own = {
    sku: merged(trimmedOrNull(input.sku), current?.sku ?? null),
    barcode: merged(trimmedOrNull(input.barcode), current?.barcode ?? null),
    weightGrams: merged<number | string | null>(input.weightGrams, current?.weight_grams ?? null),
  };
  const customFields = current ? mergeCustomFields(current.custom_fields, input.customFields) : newCustomFields(input.customFields);
  return {
    tags: tags.tags,
    customFields: input.customFields !== undefined || !current ? JSON.stringify(customFields) : undefined,
    details: [...tags.details, ...ownFieldDetails(hasOptions, own), ...customFieldsDetails(customFields)],
  };
}

/**
 * Checks everything a create or update can get wrong and reports every wrong field at once
 * (CONTRACT §3); reads the database (attribute set) but writes nothing, media included.
 */
export async function prepareProduct(
  db: Db,
  storeId: string,
  input: UpdateProductInput,
  current: CurrentProduct | null,
  ctx: ProductContext,
): Promise<PreparedProduct> {
  const prices = checkPrices(input, current);
  const handle = checkHandle(input);
  const media = checkMedia(input, ctx);
  const options = input.options ? normalizeOptions(input.options) : undefined;
  const catalog = checkCatalog(input, current, options?.options);
  const attributeSet = input.attributeSet
    ? await missingReferences(db, 'attribute_sets', storeId, [input.attributeSet], 'attributeSet', true)
    : [];
  const details = [
    ...handle.details,
    ...prices.details,
    ...media.details,
    ...(options?.details ?? []),
    ...catalog.details,
    ...attributeSet,
  ];
  if (details.length) throw validationError(details);
  // Merged field by field: into the stored config on update, into the default on create.
  const returnConfig = JSON.stringify({ ...DEFAULT_RETURN_CONFIG, ...current?.return_config, ...input.returnConfig });
  const columns: Updateable<DB['products']> = {
    ...optionalColumns(input),
    ...suppliedColumns({
      compare_price: prices.givenCompare,
      images: media.images,
      size_chart: media.sizeChart,
      tags: catalog.tags,
      custom_fields: catalog.customFields,
    }),
    ...(options ? { options: JSON.stringify(options.options) } : {}),
    ...(input.returnConfig ? { return_config: returnConfig } : {}),
  };
  return {
    columns,
    returnConfig,
    handle: handle.handle,
    options: options?.options,
    variants: input.variants,
    variantsExactly: input.variantsExactly === true,
    optionsBefore: current?.options,
    price: prices.price,
    comparePrice: prices.comparePrice,
    pending: media.pending,
  };
}
