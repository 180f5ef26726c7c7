import type { CustomFields } from '../../shared/index.js';

/**
 * What the Shopify customer and order exports share: customFields keys are headers (the import kept each
 * cell without a field of its own under its column's header), so the export writes each key back to the
 * column of that name, compared case-insensitively as the import compares headers.
 */

/** The columns the keys name beyond `fixed`, each once (the first spelling), in alphabetical order. */
export function extraColumns(keys: Iterable<string>, fixed: readonly string[]): string[] {
  const seen = new Set(fixed.map((column) => column.toLowerCase()));
  const extra: string[] = [];
  for (const key of [...keys].sort()) {
    const lower = key.toLowerCase();
    if (key.trim() === '' || seen.has(lower)) continue;
    seen.add(lower);
    extra.push(key);
  }
  return extra;
}

/** A record's customFields by column (lower case; the first spelling of a key wins). */
export function customFieldsByColumn(fields: CustomFields): Map<string, string | number | boolean> {
  const byColumn = new Map<string, string | number | boolean>();
  for (const [key, value] of Object.entries(fields)) if (!byColumn.has(key.toLowerCase())) byColumn.set(key.toLowerCase(), value);
  return byColumn;
}
