import type { ErrorDetail } from '../errors.js';
import { webUrlProblem } from '../shared/index.js';

/**
 * The catalog fields a migration carries (docs/products.md, "Catalog fields"): tags, a simple product's own
 * SKU, barcode and weight, a variant's image (tags: `normalizeTags` of src/shared, customers' rule too). Pure checks; the product's write stores what they return.
 */

const detail = (field: string, message: string): ErrorDetail => ({ field, in: 'body', message });

/** A simple product's own fields, as a write would leave them (the stored value where the write names none). */
export interface OwnFields {
  sku: string | null;
  barcode: string | null;
  weightGrams: number | string | null;
}

/**
 * Only a product without options (a simple product) has its own SKU, barcode and weight: a product with
 * options keeps them on its variants. A write that would leave a product with options and any of them set
 * is refused, naming the field (sending it as null clears it), so nothing is dropped silently.
 */
export function ownFieldDetails(hasOptions: boolean, own: OwnFields): ErrorDetail[] {
  if (!hasOptions) return [];
  const message = 'only a product without options has its own; set it on the variants (send null to clear it)';
  return (['sku', 'barcode', 'weightGrams'] as const).flatMap((field) => (own[field] == null ? [] : [detail(field, message)]));
}

/** An empty or blank SKU or barcode clears it, as a variant's SKU does. */
export const trimmedOrNull = (value: string | null | undefined) => (value === undefined ? undefined : value?.trim() || null);

/** A variant's image: an absolute http(s) URL (null clears it). */
export function variantImageDetails(image: string | null | undefined, field: string): ErrorDetail[] {
  if (image == null) return [];
  const problem = webUrlProblem(image);
  return problem ? [detail(field, problem)] : [];
}
