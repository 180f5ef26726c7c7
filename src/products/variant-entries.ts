import { isDeepStrictEqual } from 'node:util';
import { type ErrorDetail, validationError } from '../errors.js';
import { type CustomFields, customFieldsDetails, mergeCustomFields } from '../shared/index.js';
import { trimmedOrNull, variantImageDetails } from './catalog-fields.js';
import { type Combination, combinationKey } from './options.js';
import type { VariantEntryInput } from './products.schema.js';

/**
 * `variants` of a product write (CONTRACT §6): each entry sets price, salePrice, stock and SKU of the
 * variant whose attributes equal its own, once the options have generated or kept the variants.
 */

/** A variant's settable values as stored (numerics as text). */
export interface VariantValues {
  price: string | null;
  sale_price: string | null;
  stock: number;
  sku: string | null;
  barcode: string | null;
  weight_grams: string | null;
  image: string | null;
  custom_fields: CustomFields;
}

/**
 * The entry (or a variant PATCH) applied to a variant's values: what it names replaces the value, custom
 * fields merge key by key (a null removes a key).
 */
export function withEntry(values: VariantValues, entry: Omit<VariantEntryInput, 'attributes'>): VariantValues {
  return {
    price: entry.price !== undefined ? text(entry.price) : values.price,
    sale_price: entry.salePrice !== undefined ? text(entry.salePrice) : values.sale_price,
    stock: entry.stock ?? values.stock,
    // an empty or blank SKU or barcode clears it
    sku: entry.sku === undefined ? values.sku : (trimmedOrNull(entry.sku) ?? null),
    barcode: entry.barcode === undefined ? values.barcode : (trimmedOrNull(entry.barcode) ?? null),
    weight_grams: entry.weightGrams !== undefined ? text(entry.weightGrams) : values.weight_grams,
    image: entry.image !== undefined ? entry.image : values.image,
    custom_fields: mergeCustomFields(values.custom_fields, entry.customFields),
  };
}

/** What a variant's values may not be (the field names prefixed by `path`, e.g. `variants[2].`). */
export function variantValueDetails(values: VariantValues, entry: Omit<VariantEntryInput, 'attributes'>, path: string): ErrorDetail[] {
  const details = [
    ...variantImageDetails(entry.image, `${path}image`),
    ...customFieldsDetails(values.custom_fields, `${path}customFields`),
  ];
  if (values.price != null && values.sale_price != null && Number(values.sale_price) < Number(values.price)) {
    const field = entry.salePrice !== undefined ? 'salePrice' : 'price';
    details.push(detail(`${path}${field}`, 'salePrice must be greater than or equal to price'));
  }
  return details;
}

export interface Entries {
  byKey: Map<string, { entry: VariantEntryInput; index: number }>;
  /** with `variantsExactly`: the listed combinations, the only ones the product keeps */
  listed?: Set<string>;
}

const detail = (field: string, message: string): ErrorDetail => ({ field, in: 'body', message });
const text = (value: number | string | null) => (value == null ? null : String(value));

/** The entries by combination; an entry listed twice is a 400. `exactly`: the product keeps only the listed ones. */
export function indexEntries(entries: VariantEntryInput[] | undefined, exactly = false): Entries {
  const byKey = new Map<string, { entry: VariantEntryInput; index: number }>();
  const details: ErrorDetail[] = [];
  (entries ?? []).forEach((entry, index) => {
    const key = combinationKey(entry.attributes);
    if (byKey.has(key)) details.push(detail(`variants[${index}].attributes`, 'names a variant listed before'));
    else byKey.set(key, { entry, index });
  });
  if (details.length) throw validationError(details);
  return exactly ? { byKey, listed: new Set(byKey.keys()) } : { byKey };
}

/**
 * The values of each variant (in order) with its entry applied, checked as a whole: every entry must
 * match one of `variants`, and salePrice (the compare-at price) may not be below the price.
 */
export function applyEntries(entries: Entries, variants: { attributes: Combination; values: VariantValues }[]): VariantValues[] {
  const details: ErrorDetail[] = [];
  const matched = new Set<string>();
  const result = variants.map(({ attributes, values }) => {
    const key = combinationKey(attributes);
    const found = entries.byKey.get(key);
    if (!found) return values;
    matched.add(key);
    const { entry, index } = found;
    const merged = withEntry(values, entry);
    details.push(...variantValueDetails(merged, entry, `variants[${index}].`));
    return merged;
  });
  for (const [key, { index }] of entries.byKey) {
    if (!matched.has(key)) details.push(detail(`variants[${index}].attributes`, 'matches no variant of the product’s options'));
  }
  if (details.length) throw validationError(details.sort((a, b) => a.field.localeCompare(b.field)));
  return result;
}

/** Whether an entry changed anything of a stored variant. */
export function changed(before: VariantValues, after: VariantValues): boolean {
  return (
    before.price !== after.price ||
    before.sale_price !== after.sale_price ||
    before.stock !== after.stock ||
    before.sku !== after.sku ||
    before.barcode !== after.barcode ||
    before.weight_grams !== after.weight_grams ||
    before.image !== after.image ||
    !isDeepStrictEqual(before.custom_fields, after.custom_fields)
  );
}
