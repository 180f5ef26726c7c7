import type { Insertable } from 'kysely';
import type { Db } from '../db/index.js';
import { duplicateValue } from '../errors.js';
import { insertWithFreeSlug, slugBase } from '../shared/index.js';
import { handlesLike, handleTakenByOther, insertProductRow, type ProductRow } from './products.sql.js';
import type { ProductTable } from './products.tables.js';

/** A title with no letter or digit (e.g. only emoji) still gets a handle. */
const FALLBACK_BASE = 'product';

export function handleBaseOf(title: string): string {
  return slugBase(title, FALLBACK_BASE);
}

export type NewProduct = Omit<Insertable<ProductTable>, 'handle'>;

/**
 * Inserts a product. A supplied handle (already slugified) must be free (400 DUPLICATE_VALUE);
 * without one the handle is the title's slug, made unique with the first free numeric suffix,
 * whatever the number of concurrent creates of the same title.
 */
export async function insertProduct(db: Db, values: NewProduct, title: string, handle: string | undefined): Promise<ProductRow> {
  if (handle !== undefined) {
    const row = await insertProductRow(db, { ...values, handle });
    if (!row) throw duplicateValue('handle');
    return row;
  }
  const base = handleBaseOf(title);
  return insertWithFreeSlug(
    base,
    () => handlesLike(db, values.store_id, base),
    (slug) => insertProductRow(db, { ...values, handle: slug }),
  );
}

/** On update a supplied handle may not belong to another product of the store. */
export async function assertHandleFree(db: Db, storeId: string, productId: string, handle: string): Promise<void> {
  if (await handleTakenByOther(db, storeId, productId, handle)) throw duplicateValue('handle');
}
