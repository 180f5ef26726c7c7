import { validationError } from '../../errors.js';
import { MAX_VARIANTS } from '../../products/index.js';
import { suppliedSlug } from '../../shared/index.js';
import { type GroupLimits, groupingReader, LineBuilder, listCell, missingOf, ProductBlocks, putKey, setHandle } from '../lines.js';
import type { CsvLayout, CsvRecord, LayoutLine } from '../types.js';
import { SHOPIFY_PRODUCT_KEY_COLUMNS, type ShopifyTarget } from './product-columns.js';
import { cellOf, resolve, type ShopifyFile } from './product-file.js';
import { readImages, readVariants } from './product-variants.js';

/**
 * Shopify's product CSV, both header generations (product-columns.ts says where every column lands).
 * The records of one product are consecutive and share the handle; its first record carries the
 * product's fields.
 */

const handleOf = (file: ShopifyFile, record: CsvRecord) => cellOf(record, file.by.handle).toLowerCase();

/** A record continues the product being read when it has its handle, or no handle and no title. */
function continues(file: ShopifyFile, record: CsvRecord, group: readonly CsvRecord[]): boolean {
  const handle = handleOf(file, record);
  if (handle !== '') return handle === handleOf(file, group[0]);
  return cellOf(record, file.by.title) === '';
}

/** `active`, or `disabled` for a draft, archived or unpublished product; undefined when the file says neither. */
function statusOf(file: ShopifyFile, record: CsvRecord): string | undefined {
  let status: string | undefined;
  for (const column of file.statusColumns) {
    const cell = cellOf(record, column).toLowerCase();
    if (cell === '') continue;
    const off = column.header.toLowerCase() === 'status' ? cell !== 'active' : cell === 'false' || cell === 'no';
    status = off || status === 'disabled' ? 'disabled' : 'active';
  }
  return status;
}

function productFields(file: ShopifyFile, line: LineBuilder, record: CsvRecord): void {
  const { by } = file;
  const text = (target: ShopifyTarget) => cellOf(record, by[target]) || undefined;
  const title = text('title');
  // the key of the line: a product without a handle gets its title's slug (a re-run finds it again)
  const handle = text('handle');
  if (handle !== undefined && by.handle) setHandle(line, handle, { line: record.line, column: by.handle.header });
  else line.set('handle', title ? suppliedSlug(title) : undefined, record.line, by.handle?.header ?? by.title?.header);
  line.set('title', title, record.line, by.title?.header);
  const description = by.description ? (record.cells[by.description.index] ?? '') : '';
  line.set('description', description.trim() === '' ? undefined : description, record.line, by.description?.header);
  for (const field of ['vendor', 'productType', 'metaTitle', 'metaDescription'] as const)
    line.set(field, text(field), record.line, by[field]?.header);
  line.set('tags', listCell(cellOf(record, by.tags)), record.line, by.tags?.header);
  line.set('status', statusOf(file, record), record.line, file.statusColumns[0]?.header);
}

/** The product-level customFields of the first record: listed and unlisted columns, and the status cells. */
export function productCustomFields(file: ShopifyFile, line: LineBuilder, record: CsvRecord, fields: Record<string, unknown>): void {
  for (const column of [...file.statusColumns, ...file.custom]) {
    if (column.level !== 'product') continue;
    const cell = cellOf(record, column);
    if (cell === '') continue;
    putKey(fields, column.key, cell);
    line.source(`customFields.${column.key}`, record.line, column.header);
  }
}

function buildProduct(file: ShopifyFile, records: readonly CsvRecord[]): LayoutLine {
  const first = records[0];
  const line = new LineBuilder(first);
  productFields(file, line, first);
  const customFields: Record<string, unknown> = {};
  productCustomFields(file, line, first, customFields);
  readImages(file, line, records, customFields);
  const marketPrices = readVariants(file, line, records, customFields);
  if (Object.keys(customFields).length > 0) line.value.customFields = customFields;
  const done = line.done(records[records.length - 1].line);
  return marketPrices.length > 0 ? { ...done, marketPrices } : done;
}

/** Image rows a product's rows may hold: the default of STOREFRONT_MEDIA_MAX_IMAGES (a file is read without a store's settings). */
const MAX_IMAGES = 250;

/** A product's rows at most: its variant rows and its image rows (a continuation row that adds nothing counts). */
export const MAX_PRODUCT_ROWS = MAX_VARIANTS + MAX_IMAGES;

/** The limits of one product's rows (docs/csv-import.md, "Hostile files"). */
function productRowLimits(file: ShopifyFile): GroupLimits {
  const column = file.by.handle?.header ?? file.by.title?.header ?? 'Handle';
  return {
    maxRecords: MAX_PRODUCT_ROWS,
    column,
    tooMany: (rows) =>
      validationError(
        [
          {
            field: 'handle',
            in: 'body',
            message: `has ${rows} rows; a product has at most ${MAX_VARIANTS} variant rows and ${MAX_IMAGES} image rows`,
          },
        ],
        `The product has ${rows} rows, more than the ${MAX_PRODUCT_ROWS} a product may have (${MAX_VARIANTS} variant rows and ${MAX_IMAGES} image rows); none of its rows is imported`,
      ),
    opens: (record) => handleOf(file, record) !== '' || cellOf(record, file.by.title) !== '',
    beforeFirst: () =>
      validationError(
        [{ field: 'handle', in: 'body', message: `is empty in a row before the first product: a product's first row names its ${column}` }],
        `Rows before the first product belong to no product (they have no ${column} and no Title)`,
      ),
  };
}

export const shopifyProducts: CsvLayout = {
  name: 'shopify-products',
  format: 'shopify',
  resource: 'products',
  // a resumed job reads the rows before its resume point again, unapplied: the handles given so far (ProductBlocks)
  replaysOnResume: true,
  missingColumns: (header) => missingOf(header, [SHOPIFY_PRODUCT_KEY_COLUMNS.handle, SHOPIFY_PRODUCT_KEY_COLUMNS.title]),
  open(header) {
    const file = resolve(header);
    const blocks = new ProductBlocks();
    const column = file.by.handle?.header ?? 'Handle';
    return groupingReader(
      (record, group) => continues(file, record, group),
      (records) => {
        const handle = handleOf(file, records[0]);
        const last = records[records.length - 1].line;
        return (handle !== '' && blocks.repeated(handle, records[0], last, column)) || buildProduct(file, records);
      },
      productRowLimits(file),
    );
  },
};
