import type { Db } from '../db/database.js';
import { firstFreeSlug, slugBase, suppliedSlug, takenSlugs } from '../shared/slug.js';

/** Handles follow the products' rule (CONTRACT §6), unique among the store's collections. */

// A title with no letter or digit (e.g. only emoji or a non-Latin script) still gets a handle.
const FALLBACK_BASE = 'collection';

/** A supplied handle, slugified; '' when nothing usable is left (the caller answers 400). */
export const suppliedHandle = suppliedSlug;

/**
 * The title's slug, or the first free `slug-<n>`. The caller holds the store's collections lock
 * (lockStoreCollections), so no concurrent write can take the handle before the insert.
 */
export async function generateHandle(db: Db, storeId: string, title: string): Promise<string> {
  const base = slugBase(title, FALLBACK_BASE);
  return firstFreeSlug(base, await takenSlugs(db, 'collections', storeId, base));
}
