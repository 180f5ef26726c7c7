import type { Insertable } from 'kysely';
import type { DB, Db } from '../db/index.js';
import { duplicateValue } from '../errors.js';
import { insertWithFreeSlug, slugBase, suppliedSlug } from '../shared/index.js';
import { handlesLike, insertCollectionRow } from './collections.sql.js';

/** Handles follow the products' rule (CONTRACT §6), unique among the store's collections. */

// A title with no letter or digit (e.g. only emoji or a non-Latin script) still gets a handle.
const FALLBACK_BASE = 'collection';

/** A supplied handle, slugified; '' when nothing usable is left (the caller answers 400). */
export const suppliedHandle = suppliedSlug;

export type NewCollection = Omit<Insertable<DB['collections']>, 'handle'>;

/**
 * Inserts a collection. A supplied handle (already slugified) must be free (400 DUPLICATE_VALUE);
 * without one the handle is the title's slug or the first free `slug-<n>`, whatever the number of
 * concurrent creates of the same title.
 */
export async function insertCollection(db: Db, values: NewCollection, handle: string | undefined): Promise<void> {
  if (handle !== undefined) {
    if (!(await insertCollectionRow(db, { ...values, handle }))) throw duplicateValue('handle');
    return;
  }
  const base = slugBase(values.title, FALLBACK_BASE);
  await insertWithFreeSlug(
    base,
    () => handlesLike(db, values.store_id, base),
    (slug) => insertCollectionRow(db, { ...values, handle: slug }),
  );
}
