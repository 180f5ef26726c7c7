import { Type } from '@sinclair/typebox';
import type { ErrorDetail } from '../errors.js';

/** At most this many distinct tags on a record (products, customers; CONTRACT §10.1). */
export const MAX_TAGS = 250;

/** A write's `tags`: strings of at most 255 characters (more than MAX_TAGS given may still shrink to it). */
export const TagsInput = Type.Array(Type.String({ maxLength: 255 }), {
  maxItems: 1000,
  description: `trimmed, empty ones dropped, unique case-insensitively (the first spelling kept), at most ${MAX_TAGS}`,
});

/**
 * Tags trimmed, empty ones dropped, unique case-insensitively (the first spelling kept), at most MAX_TAGS:
 * the one rule of products' and customers' tags, and of a price list's customerTags.
 */
export function normalizeTags(given: string[] | undefined, field = 'tags'): { tags?: string[]; details: ErrorDetail[] } {
  if (given === undefined) return { details: [] };
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of given) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (tag === '' || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  if (tags.length > MAX_TAGS) return { details: [{ field, in: 'body', message: `at most ${MAX_TAGS} distinct tags` }] };
  return { tags, details: [] };
}
