import slugify from '@sindresorhus/slugify';

/**
 * Slugs of short texts, kept: every variant's SKU slugs its option values ("Red", "XL"), the same few words
 * on every create, and slugify (transliteration, a dozen regular expressions) was 6% of a create product's
 * server time (docs/decisions.md, "Kept slugs"). Bounded: emptied when full.
 */
const slugCache = new Map<string, string>();
const CACHED_SLUGS = 4096;
const CACHED_TEXT_LENGTH = 64;

/**
 * The one slug rule of the catalog (CONTRACT §6): lowercase ASCII, words joined by `-`.
 * `decamelize` is off so "iPhone" stays one word ("iphone", not "i-phone").
 */
export function toSlug(text: string): string {
  if (text.length > CACHED_TEXT_LENGTH) return slugify(text, { decamelize: false });
  let slug = slugCache.get(text);
  if (slug === undefined) {
    if (slugCache.size >= CACHED_SLUGS) slugCache.clear();
    slug = slugify(text, { decamelize: false });
    slugCache.set(text, slug);
  }
  return slug;
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

/**
 * Inserts a row under the first free of `base`, `base-2`, `base-3`, … `insert` is an
 * `INSERT … ON CONFLICT (store_id, handle) DO NOTHING` that returns undefined when the slug is
 * taken, so a lost race never aborts the transaction; `readTaken` reads the store's slugs that
 * could collide (`base` and `base-…`).
 *
 * `base` itself is tried first, without reading: a new title's slug is usually free, and then the
 * insert is the only statement. After a refusal the slugs are read (the winner has committed, so
 * the next statement sees it) and a lost candidate is never tried twice. Always succeeds, whatever
 * the concurrency, without locking out other creates: every attempt tries a new slug and only a
 * row that really holds it can refuse it, so the loop ends.
 */
export async function insertWithFreeSlug<T>(
  base: string,
  readTaken: () => Promise<Set<string>>,
  insert: (slug: string) => Promise<T | undefined>,
): Promise<T> {
  const lost = new Set<string>();
  let slug = base;
  for (;;) {
    const row = await insert(slug);
    if (row !== undefined) return row;
    lost.add(slug);
    const taken = await readTaken();
    for (const candidate of lost) taken.add(candidate);
    slug = firstFreeSlug(base, taken);
  }
}
