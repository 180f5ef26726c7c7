import { getDefaultAddresses } from '../addresses/index.js';
import { type Customer, getCustomerTextsByIds } from '../customers/index.js';
import type { Db } from '../db/index.js';
import { getInventoryRecordsByIds, type InventoryRecord } from '../locations/index.js';
import { getOrdersByIds, type Order } from '../orders/index.js';
import {
  type CsvCell,
  type CustomerWithAddress,
  csvRows,
  exportQuoting,
  type MarketPrices,
  ShopifyProductWriter,
  type SpreadsheetQuoting,
  shopifyCustomerColumns,
  shopifyCustomerRow,
  shopifyInventoryColumns,
  shopifyInventoryRow,
  shopifyOrderColumns,
  shopifyOrderRows,
} from '../platforms/index.js';
import { listsWithPrices, pricesOfItems } from '../price-lists/index.js';
import { getProductTextsByIds, type Product } from '../products/index.js';

import { customFieldKeys } from './exports.sql.js';
import type { ExportReader } from './snapshot.js';
import type { ExportPlan } from './stream.js';

/**
 * `GET /exports/{resource}?format=shopify`: the records as another platform's CSV instead of NDJSON. The
 * layouts are src/platforms' (the same tables its imports read); this file gives each its reads: the
 * customFields keys the header row needs (columns are known before the first record), the records of a
 * chunk as a row is made from them, and the rows of a record. Rows are written by csvRows (src/platforms/csv-rows.ts: RFC 4180,
 * and a text cell a spreadsheet would run as a formula written with a leading apostrophe, as the layout's
 * import reads it back: src/platforms/spreadsheet-quote.ts).
 */

export const CSV_EXPORT_FORMATS = ['shopify'] as const;
export type CsvExportFormat = (typeof CSV_EXPORT_FORMATS)[number];
export const CSV = 'text/csv';

/** An export's writer: its header row, from the customFields keys the store's records use, and each record's rows. */
export interface CsvWriter {
  columns: readonly string[];
  /** a record's rows, cells in the order of `columns` (numbers for number columns) */
  rows(record: object): CsvCell[][];
}

export interface CsvExport {
  /** the writer of one export (its reads are the export's first, after the count) */
  open(db: Db, storeId: string): Promise<CsvWriter>;
  /** the chunk's records in id order, as the writer takes them */
  read(db: Db, storeId: string, ids: string[]): Promise<object[]>;
  /** how the layout's import reads a quoted cell back: what the export writes */
  quoting: SpreadsheetQuoting;
}

const keysOf = async (db: Db, storeId: string, tables: ('products' | 'variants' | 'customers' | 'orders')[]) =>
  (await Promise.all(tables.map((table) => customFieldKeys(db, table, storeId)))).flat();

/** Records from their JSON texts (stored documents): reading them back costs less than building them from rows. */
const parsed = <T>(texts: string[]): T[] => texts.map((text) => JSON.parse(text) as T);

/** A product with its items' fixed prices in the price lists (the market columns). */
interface PricedProduct {
  product: Product;
  prices: MarketPrices;
}

async function productsWithPrices(db: Db, storeId: string, ids: string[]): Promise<PricedProduct[]> {
  const products = parsed<Product>(await getProductTextsByIds(db, storeId, ids));
  const prices = await pricesOfItems(db, storeId, ids);
  return products.map((product) => ({ product, prices }));
}

async function customersWithAddresses(db: Db, storeId: string, ids: string[]): Promise<CustomerWithAddress[]> {
  const customers = parsed<Customer>(await getCustomerTextsByIds(db, storeId, ids));
  const addresses = await getDefaultAddresses(db, storeId, ids);
  return customers.map((customer) => ({ customer, address: addresses.get(customer.id) ?? null }));
}

const SHOPIFY: Record<string, CsvExport> = {
  products: {
    open: async (db, storeId) => {
      const writer = new ShopifyProductWriter(await keysOf(db, storeId, ['products', 'variants']), await listsWithPrices(db, storeId));
      return {
        columns: writer.columns,
        rows: (record) => writer.rows((record as PricedProduct).product, (record as PricedProduct).prices),
      };
    },
    read: productsWithPrices,
    quoting: exportQuoting('shopify', 'products'),
  },
  customers: {
    open: async (db, storeId) => {
      const columns = shopifyCustomerColumns(await keysOf(db, storeId, ['customers']));
      return { columns, rows: (record) => [shopifyCustomerRow(record as CustomerWithAddress, columns)] };
    },
    read: customersWithAddresses,
    quoting: exportQuoting('shopify', 'customers'),
  },
  orders: {
    open: async (db, storeId) => {
      const columns = shopifyOrderColumns(await keysOf(db, storeId, ['orders']));
      return { columns, rows: (record) => shopifyOrderRows(record as Order, columns) };
    },
    read: getOrdersByIds,
    quoting: exportQuoting('shopify', 'orders'),
  },
  inventory: {
    open: async () => ({ columns: shopifyInventoryColumns(), rows: (record) => [shopifyInventoryRow(record as InventoryRecord)] }),
    read: getInventoryRecordsByIds,
    quoting: exportQuoting('shopify', 'inventory'),
  },
};

/** The resources with a CSV layout of `format` (their export routes take `format`). */
export const csvExportOf = (resource: string, format: CsvExportFormat = 'shopify'): CsvExport | undefined =>
  format === 'shopify' ? SHOPIFY[resource] : undefined;

/**
 * What a CSV export streams instead of NDJSON: the header row first, then each chunk's records read by the
 * layout's read and written as rows. The columns are read through the export's reader (its snapshot).
 */
export async function csvBody(csv: CsvExport, reader: ExportReader, storeId: string): Promise<Pick<ExportPlan, 'head' | 'text'>> {
  const writer = await reader.read((db) => csv.open(db, storeId));
  return {
    head: csvRows([writer.columns], csv.quoting),
    text: async (db, storeId, ids) =>
      csvRows(
        (await csv.read(db, storeId, ids)).flatMap((record) => writer.rows(record)),
        csv.quoting,
      ),
  };
}
