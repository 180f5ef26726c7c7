import type { Insertable } from 'kysely';
import type { DB, Db } from '../db/index.js';
import { duplicateValue } from '../errors.js';
import { insertWithFreeSlug, slugBase } from '../shared/index.js';
import { handlesLike, handleTakenByOther, insertProductRow, newSearchText, type ProductRow } from './products.sql.js';

/** A title with no letter or digit (e.g. only emoji) still gets a handle. */
const FALLBACK_BASE = 'product';

export function handleBaseOf(title: string): string {
  return slugBase(title, FALLBACK_BASE);
}

export type NewProduct = Omit<Insertable<DB['products']>, 'handle'>;

/** The SKUs a new product's variants will have under a handle (SKUs are made from it), or null if unknown. */
export type VariantSkus = (handle: string) => (string | null)[] | null;

/**
 * Inserts a product. A supplied handle (already slugified) must be free (400 DUPLICATE_VALUE);
 * without one the handle is the title's slug, made unique with the first free numeric suffix,
 * whatever the number of concurrent creates of the same title. With `variantSkus` the row carries its
 * search text from the start (newSearchText), so the variants inserted next do not write it again.
 */
export async function insertProduct(
  db: Db,
  values: NewProduct,
  title: string,
  handle: string | undefined,
  variantSkus: VariantSkus = () => null,
): Promise<ProductRow> {
  const row = (slug: string) => {
    const skus = variantSkus(slug);
    const searchText = skus ? { search_text: newSearchText(values.title, slug, values.sku ?? null, skus) } : {};
    return { ...values, handle: slug, ...searchText };
  };
  if (handle !== undefined) {
    const inserted = await insertProductRow(db, row(handle));
    if (!inserted) throw duplicateValue('handle');
    return inserted;
  }
  const base = handleBaseOf(title);
  return insertWithFreeSlug(
    base,
    () => handlesLike(db, values.store_id, base),
    (slug) => insertProductRow(db, row(slug)),
  );
}

/** On update a supplied handle may not belong to another product of the store. */
export async function assertHandleFree(db: Db, storeId: string, productId: string, handle: string): Promise<void> {
  if (await handleTakenByOther(db, storeId, productId, handle)) throw duplicateValue('handle');
}
