import { emptyRecord, LineBuilder, missingOf, numberCell, putKey } from '../lines.js';
import type { CsvHeader, CsvLayout, CsvRecord, LayoutLine, LayoutReader } from '../types.js';
import { DEFAULT_OPTION, INVENTORY_COLUMN, NOT_STOCKED, OPTION_COLUMNS, SHOPIFY_INVENTORY_REQUIRED } from './inventory-columns.js';

/**
 * Shopify's inventory CSV (inventory-columns.ts): one import line per record, the InventoryLine of
 * src/locations (`sku`, `productHandle` and `options`, `location`, `available`). The quantity set is, in this order:
 * - `On hand (new)` when the row has one (the figure a merchant edits), less the row's `Committed` and
 *   `Unavailable` units (Shopify's own arithmetic: available = on hand − committed − unavailable; said by a
 *   VALUE_CHANGED warning when they are not 0, since Storefront keeps only what is available);
 * - else `Available (not editable)` / `Available`;
 * - else `On hand (current)` / `On hand`, less `Committed` and `Unavailable` likewise.
 * `not stocked` is `available: null` (no level is made). Option names a row leaves blank are those of the
 * previous row of the same handle; `Title` / `Default Title` is a simple product (no options).
 */

type Column = readonly string[];

/** A cell of the first column of `names` the file has: its header as written and its text. */
const cellOf = (header: CsvHeader, record: CsvRecord, names: Column) => {
  const name = header.find(...names);
  return { name, text: header.cell(record, name) };
};

/** A quantity cell: a number, `not stocked` (null), the text itself (the line's checks refuse it), or undefined when empty. */
const quantityCell = (text: string) => (text.toLowerCase() === NOT_STOCKED ? null : numberCell(text));
const unitsOf = (header: CsvHeader, record: CsvRecord, names: Column) => {
  const value = numberCell(cellOf(header, record, names).text);
  return typeof value === 'number' ? value : 0;
};

/** Sets `available` from the row's quantity columns (see above), warning when it is not the file's own figure. */
function setQuantity(line: LineBuilder, header: CsvHeader, record: CsvRecord): void {
  const onHandNew = cellOf(header, record, INVENTORY_COLUMN.onHandNew);
  const available = cellOf(header, record, INVENTORY_COLUMN.available);
  const onHand = onHandNew.text !== '' ? onHandNew : available.text !== '' ? null : cellOf(header, record, INVENTORY_COLUMN.onHand);
  const given = onHand ?? available;
  const value = quantityCell(given.text);
  line.set('available', value, record.line, given.name ?? onHandNew.name ?? available.name);
  if (onHand === null || typeof value !== 'number') return;
  const committed = unitsOf(header, record, INVENTORY_COLUMN.committed);
  const unavailable = unitsOf(header, record, INVENTORY_COLUMN.unavailable);
  if (committed === 0 && unavailable === 0) return;
  line.value.available = value - committed - unavailable;
  const message = `${onHand.name} ${value} less ${committed} committed and ${unavailable} unavailable: ${value - committed - unavailable} available`;
  line.warn('VALUE_CHANGED', 'available', message);
}

/** The reader of one file: keeps the option names of the handle read last, for rows that leave them blank. */
function inventoryReader(header: CsvHeader): LayoutReader {
  let last: { handle: string; names: string[] } = { handle: '', names: [] };
  const build = (record: CsvRecord): LayoutLine => {
    const line = new LineBuilder(record);
    const sku = cellOf(header, record, INVENTORY_COLUMN.sku);
    const handle = cellOf(header, record, INVENTORY_COLUMN.handle);
    const location = cellOf(header, record, INVENTORY_COLUMN.location);
    line.set('sku', sku.text || undefined, record.line, sku.name);
    line.set('productHandle', handle.text || undefined, record.line, handle.name);
    const names = OPTION_COLUMNS.map((column, i) => header.cell(record, column.name) || (last.handle === handle.text ? last.names[i] : ''));
    last = { handle: handle.text, names };
    const options: Record<string, string> = {};
    OPTION_COLUMNS.forEach((column, i) => {
      const value = header.cell(record, column.value);
      if (names[i] === '' || value === '' || (names[i] === DEFAULT_OPTION.name && value === DEFAULT_OPTION.value)) return;
      putKey(options, names[i], value);
      line.source(`options.${names[i]}`, record.line, header.find(column.value));
    });
    if (Object.keys(options).length > 0) line.set('options', options, record.line, header.find(OPTION_COLUMNS[0].value));
    line.set('location', location.text, record.line, location.name);
    setQuantity(line, header, record);
    return line.done(record.line);
  };
  return { push: (record) => (emptyRecord(record) ? [] : [build(record)]), end: () => [] };
}

export const shopifyInventory: CsvLayout = {
  name: 'shopify-inventory',
  format: 'shopify',
  resource: 'inventory',
  missingColumns: (header) => missingOf(header, SHOPIFY_INVENTORY_REQUIRED),
  open: inventoryReader,
  // a row may take its option names from the rows before it (the previous row of its handle)
  replaysOnResume: true,
};
