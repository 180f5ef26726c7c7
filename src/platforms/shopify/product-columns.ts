/**
 * Shopify's product CSV columns and where each lands in Storefront: the one table both the import
 * (products.ts beside this file) and the Shopify export read. Shopify has used two header generations:
 * `legacy` (Handle, Body (HTML), Variant SKU, …) and `current` (URL handle, Description, SKU, …); a file
 * uses one of them, header names compared case-insensitively. docs/csv-import.md prints this table.
 *
 * `target` says where a non-empty cell goes:
 * - a product field (`handle`, `title`, `description`, `vendor`, `productType`, `tags`, `metaTitle`,
 *   `metaDescription`), read from the product's first record;
 * - `status`: `active`, or `disabled` when Status is draft/archived or Published is false; the cell is kept
 *   in `customFields` too (under its header), so draft and archived stay apart;
 * - `optionName` / `optionValue` (with `option`: 1..3): the product's options and each variant's attributes;
 * - a variant field (`sku`, `price`, `salePrice`, `stock`, `barcode`, `weightGrams`, `image`): the variant of
 *   the record, or, for a simple product (only option Title / Default Title), the product's own field
 *   (`price`, `comparePrice`, `totalStock`, `sku`, `barcode`, `weightGrams`; its variant image goes to
 *   `customFields`);
 * - `imageSrc` / `imagePosition`: the product's `images`, in Image Position order (file order for ties);
 * - `customFields`: under the header as written in the file, on the product (`level: 'product'`), on the
 *   record's variant (`level: 'variant'`; the product's for a simple product), or, for `level: 'image'`
 *   (Image Alt Text), on the product under `<header> #<n>`, n the image's 1-based place in `images`.
 *
 * A market's variant prices (`Price / <Market>`, `Compare-at price / <Market>`; legacy `Compare At Price / …`)
 * go to the price list named after the market (marketPriceColumn; src/imports/market-prices.ts).
 *
 * Any other column not in this table is a `customFields` column: variant level when its header starts with
 * "Variant" or names a variant metafield (`… (variant.metafields.…)`), product level otherwise (metafields,
 * Google Shopping, `Included / …`).
 */

export type ShopifyLevel = 'product' | 'variant' | 'image';

export type ShopifyTarget =
  | 'handle'
  | 'title'
  | 'description'
  | 'vendor'
  | 'productType'
  | 'tags'
  | 'status'
  | 'metaTitle'
  | 'metaDescription'
  | 'optionName'
  | 'optionValue'
  | 'sku'
  | 'price'
  | 'salePrice'
  | 'stock'
  | 'barcode'
  | 'weightGrams'
  | 'image'
  | 'imageSrc'
  | 'imagePosition'
  | 'customFields';

export interface ShopifyProductColumn {
  /** the header in the legacy generation; null when only the current one has the column */
  legacy: string | null;
  /** the header in the current generation; null when only the legacy one has the column */
  current: string | null;
  level: ShopifyLevel;
  target: ShopifyTarget;
  /** optionName / optionValue: which option (1..3) */
  option?: 1 | 2 | 3;
}

const column = (legacy: string | null, current: string | null, level: ShopifyLevel, target: ShopifyTarget): ShopifyProductColumn => ({
  legacy,
  current,
  level,
  target,
});

const optionColumns = ([1, 2, 3] as const).flatMap((option): ShopifyProductColumn[] => [
  { legacy: `Option${option} Name`, current: `Option${option} name`, level: 'product', target: 'optionName', option },
  { legacy: `Option${option} Value`, current: `Option${option} value`, level: 'variant', target: 'optionValue', option },
  { legacy: `Option${option} Linked To`, current: `Option${option} Linked To`, level: 'product', target: 'customFields', option },
]);

const googleShopping = (legacy: string, current: string) =>
  column(`Google Shopping / ${legacy}`, `Google Shopping / ${current}`, 'product', 'customFields');

/** Every column of both generations, in the current generation's order. */
export const SHOPIFY_PRODUCT_COLUMNS: readonly ShopifyProductColumn[] = [
  column('Title', 'Title', 'product', 'title'),
  column('Handle', 'URL handle', 'product', 'handle'),
  column('Body (HTML)', 'Description', 'product', 'description'),
  column('Vendor', 'Vendor', 'product', 'vendor'),
  column('Product Category', 'Product category', 'product', 'customFields'),
  column('Type', 'Type', 'product', 'productType'),
  column('Tags', 'Tags', 'product', 'tags'),
  column('Published', 'Published on online store', 'product', 'status'),
  column('Status', 'Status', 'product', 'status'),
  column('Variant SKU', 'SKU', 'variant', 'sku'),
  column('Variant Barcode', 'Barcode', 'variant', 'barcode'),
  ...optionColumns,
  column('Variant Price', 'Price', 'variant', 'price'),
  column('Variant Compare At Price', 'Compare-at price', 'variant', 'salePrice'),
  column('Cost per item', 'Cost per item', 'variant', 'customFields'),
  column('Variant Taxable', 'Charge tax', 'variant', 'customFields'),
  column('Variant Tax Code', 'Tax code', 'variant', 'customFields'),
  column('Unit Price Total Measure', 'Unit price total measure', 'variant', 'customFields'),
  column('Unit Price Total Measure Unit', 'Unit price total measure unit', 'variant', 'customFields'),
  column('Unit Price Base Measure', 'Unit price base measure', 'variant', 'customFields'),
  column('Unit Price Base Measure Unit', 'Unit price base measure unit', 'variant', 'customFields'),
  column('Variant Inventory Tracker', 'Inventory tracker', 'variant', 'customFields'),
  column('Variant Inventory Qty', 'Inventory quantity', 'variant', 'stock'),
  column('Variant Inventory Policy', 'Continue selling when out of stock', 'variant', 'customFields'),
  column('Variant Grams', 'Weight value (grams)', 'variant', 'weightGrams'),
  column('Variant Weight Unit', 'Weight unit for display', 'variant', 'customFields'),
  column('Variant Requires Shipping', 'Requires shipping', 'variant', 'customFields'),
  column('Variant Fulfillment Service', 'Fulfillment service', 'variant', 'customFields'),
  column('Image Src', 'Product image URL', 'image', 'imageSrc'),
  column('Image Position', 'Image position', 'image', 'imagePosition'),
  column('Image Alt Text', 'Image alt text', 'image', 'customFields'),
  column('Variant Image', 'Variant image URL', 'variant', 'image'),
  column('Gift Card', 'Gift card', 'product', 'customFields'),
  column('SEO Title', 'SEO title', 'product', 'metaTitle'),
  column('SEO Description', 'SEO description', 'product', 'metaDescription'),
  googleShopping('Google Product Category', 'Google product category'),
  googleShopping('Gender', 'Gender'),
  googleShopping('Age Group', 'Age group'),
  googleShopping('MPN', 'Manufacturer part number (MPN)'),
  googleShopping('AdWords Grouping', 'Ad group name'),
  googleShopping('AdWords Labels', 'Ads labels'),
  googleShopping('Condition', 'Condition'),
  googleShopping('Custom Product', 'Custom product'),
  ...[0, 1, 2, 3, 4].map((n) => googleShopping(`Custom Label ${n}`, `Custom label ${n}`)),
];

/** The level of a column this table does not list (see the header comment). */
export function unlistedColumnLevel(header: string): 'product' | 'variant' {
  return /^variant\b|\(variant\.metafields\./i.test(header.trim()) ? 'variant' : 'product';
}

/** The headers the Shopify export writes for a price list's prices (the current generation's spelling). */
export const marketPriceHeaders = (market: string) => ({ price: `Price / ${market}`, compareAt: `Compare-at price / ${market}` });

/** A market price column's market and which amount it holds, or null when the header is not one. */
export function marketPriceColumn(header: string): { market: string; kind: 'price' | 'compareAt' } | null {
  const match = /^(price|compare[- ]at price) \/ (.*\S)\s*$/i.exec(header.trim());
  if (!match) return null;
  return { market: match[2].trim(), kind: match[1].toLowerCase() === 'price' ? 'price' : 'compareAt' };
}

/** The customFields key of a per-image cell: `<header> #<n>`, n the image's 1-based place in `images`. */
export const imageFieldKey = (header: string, n: number) => `${header} #${n}`;

/** Reads an image-level key back: the header and n, or null when the key is not one. */
export function parseImageFieldKey(key: string): { header: string; n: number } | null {
  const match = /^(.*) #(\d+)$/.exec(key);
  return match ? { header: match[1], n: Number(match[2]) } : null;
}

const byName = new Map<string, ShopifyProductColumn>();
for (const entry of SHOPIFY_PRODUCT_COLUMNS) {
  for (const name of [entry.legacy, entry.current]) if (name) byName.set(name.toLowerCase(), entry);
}

/** The table's entry for a header of either generation (case-insensitive), or undefined. */
export const shopifyProductColumn = (header: string): ShopifyProductColumn | undefined => byName.get(header.trim().toLowerCase());

/**
 * The customFields key of a column's cells: the current generation's header for a column of the table,
 * whichever generation (and spelling) the file used (`Variant Taxable` and `charge tax` → `Charge tax`), so a
 * key keeps its name through an export in the current layout and back; an unlisted column's header as written.
 */
export function customFieldKeyOf(header: string): string {
  const entry = shopifyProductColumn(header);
  return entry ? ((entry.current ?? entry.legacy) as string) : header;
}

/** The current name of the inventory tracker column (see products-export.ts: a tracker the record does not have is not invented). */
export const INVENTORY_TRACKER = customFieldKeyOf('Variant Inventory Tracker');

/** The headers a file must have to be read as Shopify products (either generation): the handle and the title. */
export const SHOPIFY_PRODUCT_KEY_COLUMNS = { handle: ['Handle', 'URL handle'], title: ['Title'] } as const;
