/** The public surface of src/platforms: other platforms' CSV layouts (README.md). */

export { type CsvCell, csvRows } from './csv-rows.js';
export {
  CSV_LAYOUTS,
  csvResources,
  exportQuoting,
  type LayoutFile,
  layoutHeader,
  layoutNamed,
  openLayout,
  quotingOfLayout,
  type Recognised,
  recogniseLayout,
} from './layouts.js';
export { booleanCell, emptyRecord, groupingReader, LineBuilder, listCell, missingOf, numberCell } from './lines.js';
export { type CustomerWithAddress, shopifyCustomerColumns, shopifyCustomerRow } from './shopify/customers-export.js';
export { shopifyInventoryColumns, shopifyInventoryRow } from './shopify/inventory-export.js';
export { shopifyOrderColumns, shopifyOrderRows } from './shopify/orders-export.js';
export {
  imageFieldKey,
  parseImageFieldKey,
  SHOPIFY_PRODUCT_COLUMNS,
  type ShopifyLevel,
  type ShopifyProductColumn,
  type ShopifyTarget,
  shopifyProductColumn,
  unlistedColumnLevel,
} from './shopify/product-columns.js';
export { type MarketList, type MarketPrices, ShopifyProductWriter, shopifyProductColumns } from './shopify/products-export.js';
export { FORMULA_QUOTING, NUMBER_QUOTING, type SpreadsheetQuoting } from './spreadsheet-quote.js';
export {
  type CellSource,
  CSV_FORMATS,
  type CsvFormat,
  CsvHeader,
  type CsvLayout,
  type CsvRecord,
  type CsvResource,
  type LayoutLine,
  type LayoutReader,
  type LineWarning,
  type MarketCell,
  type MarketPrice,
  type WarningCode,
} from './types.js';
export { WOO_PRODUCT_COLUMNS, type WooProductColumn, wooProductColumn } from './woocommerce/product-columns.js';
