import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import { duplicateValue, registerUniqueConstraint } from '../errors.js';
import { firstFreeSlug, slugBase, takenSlugs } from '../shared/slug.js';
import { handleTakenByOther, insertProductRow, type ProductRow } from './products.sql.js';
import type { ProductTable } from './products.tables.js';

registerUniqueConstraint('products_handle_key', 'handle');

/** A title with no letter or digit (e.g. only emoji) still gets a handle. */
const FALLBACK_BASE = 'product';
/** Concurrent creates of one title can pick the same candidate; each lost race looks again. */
const ATTEMPTS = 10;

export function handleBaseOf(title: string): string {
  return slugBase(title, FALLBACK_BASE);
}

export type NewProduct = Omit<Insertable<ProductTable>, 'handle'>;

/**
 * Inserts a product. A supplied handle (already slugified) must be free (400 DUPLICATE_VALUE);
 * without one the handle is the title's slug, made unique with the first free numeric suffix.
 */
export async function insertProduct(db: Db, values: NewProduct, title: string, handle: string | undefined): Promise<ProductRow> {
  if (handle !== undefined) {
    const row = await insertProductRow(db, { ...values, handle });
    if (!row) throw duplicateValue('handle');
    return row;
  }
  const base = handleBaseOf(title);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // Re-read after a lost race: the winners have committed, so the next statement sees their handles.
    const taken = await takenSlugs(db, 'products', values.store_id, base);
    const row = await insertProductRow(db, { ...values, handle: firstFreeSlug(base, taken) });
    if (row) return row;
  }
  throw duplicateValue('handle', 'could not generate a free handle, retry or supply one');
}

/** On update a supplied handle may not belong to another product of the store. */
export async function assertHandleFree(db: Db, storeId: string, productId: string, handle: string): Promise<void> {
  if (await handleTakenByOther(db, storeId, productId, handle)) throw duplicateValue('handle');
}
