import slugify from '@sindresorhus/slugify';
import type { Db } from '../db/database.js';

/**
 * The one slug rule of the catalog (CONTRACT §6): lowercase ASCII, words joined by `-`.
 * `decamelize` is off so "iPhone" stays one word ("iphone", not "i-phone").
 */
export function toSlug(text: string): string {
  return slugify(text, { decamelize: false });
}

/**
 * The first of `base`, `base-2`, `base-3`, … that is not in `taken`: how a generated handle is
 * made unique in its store.
 */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let suffix = 2;
  while (taken.has(`${base}-${suffix}`)) suffix += 1;
  return `${base}-${suffix}`;
}

/** Generated handles leave room for a `-<n>` suffix under the 255-character limit. */
const GENERATED_MAX = 200;
const SUPPLIED_MAX = 255;

/** The base of a generated handle: the title's slug, or `fallback` for a title with no letter or digit (e.g. only emoji). */
export function slugBase(title: string, fallback: string): string {
  return toSlug(title).slice(0, GENERATED_MAX).replace(/-+$/, '') || fallback;
}

/** A supplied handle, slugified; '' when nothing usable is left (the caller answers 400). */
export function suppliedSlug(handle: string): string {
  return toSlug(handle).slice(0, SUPPLIED_MAX).replace(/-+$/, '');
}

/** The handles of `table` in the store that a generated `base` could collide with: `base` and `base-…`. */
export async function takenSlugs(db: Db, table: 'products' | 'collections', storeId: string, base: string): Promise<Set<string>> {
  // A slug holds only [a-z0-9-], so it needs no LIKE escaping.
  const rows = await db
    .selectFrom(table)
    .select('handle')
    .where('store_id', '=', storeId)
    .where((eb) => eb.or([eb('handle', '=', base), eb('handle', 'like', `${base}-%`)]))
    .execute();
  return new Set(rows.map((row) => row.handle));
}
