/**
 * WooCommerce's product CSV (its exporter's columns) and where each lands: data read by the WooCommerce
 * layout (products.ts). docs/csv-import.md prints it. A column not listed (and every `Meta: …` column)
 * lands in customFields under its header as the file writes it: the product's for a product row, the
 * variant's for a variation row.
 */

export type WooTarget =
  | 'id'
  | 'type'
  | 'sku'
  | 'name'
  | 'slug'
  | 'published'
  | 'description'
  | 'regularPrice'
  | 'salePrice'
  | 'stock'
  | 'weight'
  | 'categories'
  | 'tags'
  | 'images'
  | 'parent'
  | 'attributeName'
  | 'attributeValues';

export interface WooProductColumn {
  /** the header, or a pattern for numbered and unit-bearing columns */
  header: string | RegExp;
  target: WooTarget;
  /** where it lands, as docs/csv-import.md says it */
  lands: string;
}

export const WOO_PRODUCT_COLUMNS: readonly WooProductColumn[] = [
  { header: 'ID', target: 'id', lands: 'customFields `ID`; a variation names its parent by `id:<ID>`' },
  { header: 'Type', target: 'type', lands: 'simple / variable / variation (kept in customFields `Type`)' },
  { header: 'SKU', target: 'sku', lands: 'simple: `sku`; variation: the variant `sku`; variable: customFields `SKU`' },
  {
    header: 'Name',
    target: 'name',
    lands: '`title`; its slug is the `handle` (a later product of the same name and another ID: the slug plus `-<ID>`)',
  },
  { header: /^(slug|meta: *_?slug)$/i, target: 'slug', lands: '`handle` (instead of the slug of Name)' },
  { header: 'Published', target: 'published', lands: '`status`: 1 → active, else disabled (kept in customFields)' },
  { header: 'Description', target: 'description', lands: '`description` (a variation: its customFields)' },
  { header: 'Regular price', target: 'regularPrice', lands: '`price`, or the compare price when Sale price is set' },
  { header: 'Sale price', target: 'salePrice', lands: '`price` when set (Regular price then the compare price)' },
  { header: 'Stock', target: 'stock', lands: 'simple: `totalStock`; variation: the variant `stock`; variable: customFields' },
  {
    header: /^weight \((kg|g|lbs|oz)\)$/i,
    target: 'weight',
    lands: '`weightGrams` (converted from the unit of the header); variable: customFields',
  },
  { header: 'Categories', target: 'categories', lands: 'manual collections, `A > B` nesting B under A; the product joins each listed one' },
  { header: 'Tags', target: 'tags', lands: '`tags`' },
  { header: 'Images', target: 'images', lands: '`images` (a variation: the variant `image`, the first URL)' },
  { header: 'Parent', target: 'parent', lands: "a variation's product (`id:<ID>` or its SKU)" },
  {
    header: /^attribute \d+ name$/i,
    target: 'attributeName',
    lands: 'variation: the attribute; variable: the option its variations name (and customFields); simple: customFields',
  },
  {
    header: /^attribute \d+ value\(s\)$/i,
    target: 'attributeValues',
    lands: 'variable: the option values (comma-separated; and customFields); variation: its value (empty: any); simple: customFields',
  },
];

/** The table's entry for a header (case-insensitive), or undefined. */
export function wooProductColumn(header: string): WooProductColumn | undefined {
  const name = header.trim();
  return WOO_PRODUCT_COLUMNS.find((column) =>
    typeof column.header === 'string' ? column.header.toLowerCase() === name.toLowerCase() : column.header.test(name),
  );
}

/** Grams per unit of the exporter's weight columns. */
export const GRAMS_PER: Readonly<Record<string, number>> = { kg: 1000, g: 1, lbs: 453.59237, oz: 28.349523125 };
