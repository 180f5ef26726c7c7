import { validationError } from '../../errors.js';
import { MAX_CART_ITEMS } from '../../orders/index.js';
import { groupingReader, LineBuilder, missingOf, numberCell, putKey } from '../lines.js';
import { NUMBER_QUOTING } from '../spreadsheet-quote.js';
import type { CsvHeader, CsvLayout, CsvRecord, LayoutLine } from '../types.js';
import {
  ADDRESS_FIELDS,
  ADDRESS_KINDS,
  type AddressTarget,
  ITEM_FIELDS,
  isoFromShopifyDate,
  ORDER_FIELDS,
  rowFieldKey,
  SHOPIFY_ORDER_REQUIRED,
} from './orders-columns.js';

/**
 * Shopify's order CSV export (orders-columns.ts): the consecutive rows of one `Name` make one import line,
 * the body POST /orders takes, keyed by `customOrderId` (the Name). A row is a cart item; the first row
 * carries the order's fields. `Created at` is kept as the order's `createdAt`, statuses are kept as
 * given (`Financial Status` → paymentStatus, `Fulfillment Status` → orderStatus), and the order takes no
 * stock (a historical record). A cart item names its product by its SKU (its name without one): an order
 * is a snapshot, the product need not exist.
 */

interface Column {
  index: number;
  header: string;
}

interface OrderFile {
  name: Column | undefined;
  order: (Column & (typeof ORDER_FIELDS)[number])[];
  items: (Column & (typeof ITEM_FIELDS)[number])[];
  addresses: { field: string; columns: (Column & { target: AddressTarget })[] }[];
  /** customFields columns: per line item (`Lineitem …`, `Vendor`) or per order */
  custom: (Column & { perItem: boolean })[];
}

const isItemColumn = (header: string) => /^(lineitem\b|vendor$)/i.test(header.trim());

function resolve(header: CsvHeader): OrderFile {
  const taken = new Set<number>();
  const column = (name: string): Column | undefined => {
    const index = header.index(name);
    if (index === undefined) return undefined;
    taken.add(index);
    return { index, header: header.names[index] };
  };
  const order = ORDER_FIELDS.flatMap((field) => {
    const found = column(field.header);
    return found ? [{ ...found, ...field }] : [];
  });
  const items = ITEM_FIELDS.flatMap((field) => {
    const found = column(field.header);
    return found ? [{ ...field, ...found }] : [];
  });
  const addresses = ADDRESS_KINDS.map(({ prefix, field }) => ({
    field,
    columns: ADDRESS_FIELDS.flatMap(({ suffix, target }) => {
      // a file without `… Address1` has its first address line in `… Street`
      const found = column(`${prefix} ${suffix}`) ?? (suffix === 'Address1' ? column(`${prefix} Street`) : undefined);
      return found ? [{ ...found, target }] : [];
    }),
  }));
  const custom = header.names.flatMap((name, index) =>
    taken.has(index) || name.trim() === '' || header.index(name) !== index ? [] : [{ index, header: name, perItem: isItemColumn(name) }],
  );
  return { name: order.find((field) => field.target === 'customOrderId'), order, items, addresses, custom };
}

/** A cell, trimmed (the apostrophe Shopify's export puts before zips, phones and ids is gone already: `quoting`). */
const cellAt = (record: CsvRecord, column: Column | undefined) => (column ? (record.cells[column.index] ?? '').trim() : '');

function orderFields(file: OrderFile, line: LineBuilder, first: CsvRecord): void {
  for (const field of file.order) {
    const cell = cellAt(first, field);
    if (cell === '') continue;
    const value = field.number ? numberCell(cell) : field.target === 'createdAt' ? isoFromShopifyDate(cell) : cell;
    line.set(field.target, field.target === 'currency' ? cell.toUpperCase() : value, first.line, field.header);
  }
  for (const { field, columns } of file.addresses) {
    const address: Record<string, string> = {};
    for (const column of columns) {
      const cell = cellAt(first, column);
      if (cell === '') continue;
      if (column.target === 'name') {
        const [firstName, ...rest] = cell.split(/\s+/);
        address.firstName = firstName;
        if (rest.length > 0) address.lastName = rest.join(' ');
      } else address[column.target] = cell;
      line.source(`${field}.${column.target === 'name' ? 'firstName' : column.target}`, first.line, column.header);
    }
    if (Object.keys(address).length > 0) line.set(field, address, first.line, columns[0]?.header);
  }
}

/** One cart item per row: quantity, name, price, SKU; the product is named by the SKU (the name without one). */
function cartItems(file: OrderFile, line: LineBuilder, records: readonly CsvRecord[]): void {
  line.value.cartItems = records.map((record, i) => {
    const item: Record<string, unknown> = {};
    for (const field of file.items) {
      const cell = cellAt(record, field);
      if (cell === '') continue;
      item[field.target] = field.number ? numberCell(cell) : cell;
      line.source(`cartItems[${i}].${field.target}`, record.line, field.header);
    }
    const by = item.sku ?? item.title;
    if (by !== undefined) item.productId = by;
    line.source(`cartItems[${i}].productId`, record.line, file.items.find((f) => f.target === (item.sku ? 'sku' : 'title'))?.header);
    return item;
  });
}

/** Subtotal (the items' sum) and total (with shipping and taxes) when the file leaves them out. */
function totalsWhenMissing(line: LineBuilder): void {
  const value = line.value as { cartItems: { price?: unknown; quantity?: unknown }[]; [field: string]: unknown };
  const cents = (n: number) => Math.round(n * 100) / 100;
  const amount = (field: string) => (typeof value[field] === 'number' ? (value[field] as number) : 0);
  if (value.subTotal === undefined) {
    const sum = value.cartItems.reduce((total, item) => total + (Number(item.price) || 0) * (Number(item.quantity) || 0), 0);
    value.subTotal = cents(sum);
  }
  value.totalAmount ??= cents(amount('subTotal') + amount('shippingCharge') + amount('taxAmount'));
}

/** A line item column whose cell is the same, and not empty, on every row of an order of several rows. */
const everyRow = (records: readonly CsvRecord[], column: Column) =>
  records.length > 1 &&
  cellAt(records[0], column) !== '' &&
  records.every((record) => cellAt(record, column) === cellAt(records[0], column));

/**
 * Cells without a field: the first row's under their header, a later row's and a line item's as
 * `<header> #<n>`, a line item cell shared by every row as `<header> #*` (see orders-columns.ts).
 */
function customFields(file: OrderFile, line: LineBuilder, records: readonly CsvRecord[]): void {
  const fields: Record<string, string> = {};
  const keep = (key: string, cell: string, record: CsvRecord, header: string) => {
    putKey(fields, key, cell);
    line.source(`customFields.${key}`, record.line, header);
  };
  for (const column of file.custom) {
    if (column.perItem && everyRow(records, column)) {
      keep(rowFieldKey(column.header, '*'), cellAt(records[0], column), records[0], column.header);
      continue;
    }
    records.forEach((record, i) => {
      const cell = cellAt(record, column);
      if (cell === '' || (!column.perItem && i > 0 && cell === cellAt(records[0], column))) return;
      keep(column.perItem || i > 0 ? rowFieldKey(column.header, i + 1) : column.header, cell, record, column.header);
    });
  }
  if (Object.keys(fields).length > 0) line.value.customFields = fields;
}

/** An order of more rows than it may have cart items: an error of all its rows (none is held past the limit). */
const tooManyItems = (rows: number) =>
  validationError(
    [{ field: 'cartItems', in: 'body', message: `has ${rows} rows; an order has at most ${MAX_CART_ITEMS} line items` }],
    `The order has ${rows} rows, more than the ${MAX_CART_ITEMS} line items an order may have; none of its rows is imported`,
  );

function buildOrder(file: OrderFile, records: readonly CsvRecord[]): LayoutLine {
  const line = new LineBuilder(records[0]);
  orderFields(file, line, records[0]);
  cartItems(file, line, records);
  totalsWhenMissing(line);
  customFields(file, line, records);
  return line.done(records[records.length - 1].line);
}

export const shopifyOrders: CsvLayout = {
  name: 'shopify-orders',
  // Shopify's export puts an apostrophe before zips, phones and ids too (src/platforms/spreadsheet-quote.ts)
  quoting: NUMBER_QUOTING,
  format: 'shopify',
  resource: 'orders',
  missingColumns: (header) => missingOf(header, SHOPIFY_ORDER_REQUIRED),
  open(header) {
    const file = resolve(header);
    return groupingReader(
      (record, group) => cellAt(record, file.name) === cellAt(group[0], file.name),
      (records) => buildOrder(file, records),
      { maxRecords: MAX_CART_ITEMS, tooMany: tooManyItems, column: file.name?.header },
    );
  },
};
