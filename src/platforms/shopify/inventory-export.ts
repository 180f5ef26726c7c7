import type { InventoryRecord } from '../../locations/index.js';
import type { CsvCell } from '../csv-rows.js';
import { DEFAULT_OPTION, SHOPIFY_INVENTORY_COLUMNS } from './inventory-columns.js';

/**
 * Levels as Shopify's current inventory CSV (inventory-columns.ts), one row per item and location: what
 * inventory.ts reads back into the same levels. Storefront keeps only what is available, so Incoming,
 * Unavailable and Committed are 0, `Available (not editable)` and `On hand (current)` are the level, and
 * `On hand (new)` is left blank (Shopify's import then changes nothing; Storefront's reads `Available`).
 * A product with more than three options joins the third and later ones into Option3 with ` / `, as the
 * product export does (such a row is found again by its SKU).
 */

export const shopifyInventoryColumns = (): readonly string[] => SHOPIFY_INVENTORY_COLUMNS;

/** Option names or values, the third and later ones joined into Option3. */
const joined = (items: string[]) => (items.length > 3 ? [...items.slice(0, 2), items.slice(2).join(' / ')] : items);

/** The level's row, cells in the order of SHOPIFY_INVENTORY_COLUMNS. */
export function shopifyInventoryRow(record: InventoryRecord): CsvCell[] {
  const options = record.options.length > 0 ? record.options : [DEFAULT_OPTION];
  const names = joined(options.map((option) => option.name));
  const values = joined(options.map((option) => option.value));
  const optionCells = [0, 1, 2].flatMap((i) => [names[i] ?? '', values[i] ?? '']);
  return [
    record.handle,
    record.title,
    ...optionCells,
    record.sku ?? '',
    '',
    '',
    record.location,
    '',
    0,
    0,
    0,
    record.available,
    record.available,
    '',
  ];
}
