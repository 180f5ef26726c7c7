import type { Db } from '../db/database.js';
import { firstFreeSlug, toSlug } from '../shared/slug.js';

/** Handles follow the products' rule (CONTRACT §6), unique among the store's collections. */

const MAX_HANDLE = 255;
// A generated handle leaves room for a `-<n>` suffix under the limit.
const MAX_BASE = 200;
// A title with no letter or digit (e.g. only emoji or a non-Latin script) still gets a handle.
const FALLBACK_BASE = 'collection';

/** A supplied handle, slugified; '' when nothing usable is left (the caller answers 400). */
export function suppliedHandle(handle: string): string {
  return toSlug(handle).slice(0, MAX_HANDLE).replace(/-+$/, '');
}

/**
 * The title's slug, or the first free `slug-<n>`. The caller holds the store's collections lock
 * (lockStoreCollections), so no concurrent write can take the handle before the insert.
 */
export async function generateHandle(db: Db, storeId: string, title: string): Promise<string> {
  const base = toSlug(title).slice(0, MAX_BASE).replace(/-+$/, '') || FALLBACK_BASE;
  // A slug holds only [a-z0-9-], so it needs no LIKE escaping.
  const rows = await db
    .selectFrom('collections')
    .select('handle')
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
    .execute();
  return firstFreeSlug(base, new Set(rows.map((row) => row.handle)));
}
