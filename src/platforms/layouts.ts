import { shopifyCustomers } from './shopify/customers.js';
import { shopifyOrders } from './shopify/orders.js';
import { shopifyProducts } from './shopify/products.js';
import type { CsvFormat, CsvHeader, CsvLayout, CsvResource } from './types.js';
import { wooProducts } from './woocommerce/products.js';

/**
 * Every CSV layout the service reads, in the order recognition tries them. To add one (e.g. Shopify
 * customers): write `src/platforms/shopify/customers.ts` exporting a `CsvLayout` (types.ts) and add it here.
 */
export const CSV_LAYOUTS: readonly CsvLayout[] = [shopifyProducts, wooProducts, shopifyCustomers, shopifyOrders];

/** What recognising a header row found: the layout, or for each candidate layout the columns it lacks. */
export type Recognised = { layout: CsvLayout } | { layout: null; missing: { layout: CsvLayout; columns: string[] }[] };

/**
 * The layout of a file of `resource` from its header row: the first of CSV_LAYOUTS (only those of `format`
 * when the upload names one) whose columns the header has.
 */
export function recogniseLayout(header: CsvHeader, resource: string, format?: CsvFormat, layouts = CSV_LAYOUTS): Recognised {
  const candidates = layouts.filter((layout) => layout.resource === resource && (format === undefined || layout.format === format));
  const missing: { layout: CsvLayout; columns: string[] }[] = [];
  for (const layout of candidates) {
    const columns = layout.missingColumns(header);
    if (columns.length === 0) return { layout };
    missing.push({ layout, columns });
  }
  return { layout: null, missing };
}

/** The layout named in a job's params (a job keeps the layout its upload was recognised as). */
export const layoutNamed = (name: string): CsvLayout | undefined => CSV_LAYOUTS.find((layout) => layout.name === name);

/** The resources some layout reads, and the formats (a CSV upload of another resource is refused). */
export const csvResources = (): CsvResource[] => [...new Set(CSV_LAYOUTS.map((layout) => layout.resource))];
