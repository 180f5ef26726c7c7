import { shopifyCustomers } from './shopify/customers.js';
import { shopifyInventory } from './shopify/inventory.js';
import { shopifyOrders } from './shopify/orders.js';
import { shopifyProducts } from './shopify/products.js';
import { FORMULA_QUOTING, type SpreadsheetQuoting } from './spreadsheet-quote.js';
import { type CsvFormat, CsvHeader, type CsvLayout, type CsvRecord, type CsvResource, type LayoutReader } from './types.js';
import { wooProducts } from './woocommerce/products.js';

/**
 * Every CSV layout the service reads, in the order recognition tries them. To add one (e.g. Shopify
 * customers): write `src/platforms/shopify/customers.ts` exporting a `CsvLayout` (types.ts) and add it here.
 */
export const CSV_LAYOUTS: readonly CsvLayout[] = [shopifyProducts, wooProducts, shopifyCustomers, shopifyOrders, shopifyInventory];

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

/** How a layout's files quote cells for spreadsheets (spreadsheet-quote.ts). */
export const quotingOfLayout = (layout: CsvLayout): SpreadsheetQuoting => layout.quoting ?? FORMULA_QUOTING;

/** The quoting of the layout an export of `resource` in `format` writes (the one its import reads back). */
export function exportQuoting(format: CsvFormat, resource: CsvResource): SpreadsheetQuoting {
  const layout = CSV_LAYOUTS.find((candidate) => candidate.format === format && candidate.resource === resource);
  return layout ? quotingOfLayout(layout) : FORMULA_QUOTING;
}

/** A file's header row as a layout reads it: its names without the apostrophe an export put before them. */
export const layoutHeader = (layout: CsvLayout, fileNames: readonly string[]): CsvHeader =>
  new CsvHeader(fileNames.map(quotingOfLayout(layout).unquote));

/** A layout's reader of one file, and the one way a record of the file reaches it. */
export interface LayoutFile {
  reader: LayoutReader;
  /** the record as the layout reads it: every cell without the apostrophe an export put before it, dropped once */
  record(line: number, cells: readonly string[]): CsvRecord;
}

/**
 * Opens a layout on a file's header row as the file has it. The one place every cell of a CSV import (the
 * header's and each record's) passes through on its way to a layout: the upload's count (imports/csv.ts) and
 * the job (imports/csv-source.ts) both read through it, so a cell loses its spreadsheet apostrophe exactly once.
 */
export function openLayout(layout: CsvLayout, fileNames: readonly string[]): LayoutFile {
  const { unquote } = quotingOfLayout(layout);
  const reader = layout.open(layoutHeader(layout, fileNames));
  return { reader, record: (line, cells) => ({ line, cells: cells.map(unquote) }) };
}
