/**
 * Shopify's inventory CSV (Products > Inventory > Export): one row per variant per location. Read by the import
 * (inventory.ts) and written by the export (inventory-export.ts). Shopify has used two header generations for
 * its quantities: the current one writes `Incoming (not editable)`, `Unavailable (not editable)`, `Committed (not
 * editable)`, `Available (not editable)`, `On hand (current)` and `On hand (new)` (the one a merchant edits);
 * the older one `Incoming`, `Unavailable`, `Committed`, `Available` and `On hand` (or `Available` alone). Title,
 * HS Code, COO, Bin name and Incoming are Shopify's own and not read: Storefront keeps no such figures per level.
 */

/** The columns of the current generation, in Shopify's order: the export's header row. */
export const SHOPIFY_INVENTORY_COLUMNS: readonly string[] = [
  'Handle',
  'Title',
  'Option1 Name',
  'Option1 Value',
  'Option2 Name',
  'Option2 Value',
  'Option3 Name',
  'Option3 Value',
  'SKU',
  'HS Code',
  'COO',
  'Location',
  'Bin name',
  'Incoming (not editable)',
  'Unavailable (not editable)',
  'Committed (not editable)',
  'Available (not editable)',
  'On hand (current)',
  'On hand (new)',
];

/** The columns the import reads, each with its header in both generations (the current one first). */
export const INVENTORY_COLUMN = {
  handle: ['Handle'],
  sku: ['SKU'],
  location: ['Location'],
  onHandNew: ['On hand (new)'],
  onHand: ['On hand (current)', 'On hand'],
  available: ['Available (not editable)', 'Available'],
  committed: ['Committed (not editable)', 'Committed'],
  unavailable: ['Unavailable (not editable)', 'Unavailable'],
} as const;

/** The headers a file must have to be read as Shopify inventory: the item, the location and a quantity. */
export const SHOPIFY_INVENTORY_REQUIRED = [
  INVENTORY_COLUMN.handle,
  INVENTORY_COLUMN.sku,
  INVENTORY_COLUMN.location,
  [...INVENTORY_COLUMN.onHandNew, ...INVENTORY_COLUMN.onHand, ...INVENTORY_COLUMN.available],
] as const;

/** Shopify's quantity cell for an item never stocked at a location (compared case-insensitively). */
export const NOT_STOCKED = 'not stocked';

/** The option columns: `Option1 Name` / `Option1 Value` … `Option3 …`. */
export const OPTION_COLUMNS = [1, 2, 3].map((n) => ({ name: `Option${n} Name`, value: `Option${n} Value` }));

/** A simple product's one option as Shopify writes it (Storefront: no options). */
export const DEFAULT_OPTION = { name: 'Title', value: 'Default Title' } as const;
