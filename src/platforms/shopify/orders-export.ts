import type { Order } from '../../orders/index.js';
import { extraColumns } from './export-columns.js';
import {
  ADDRESS_FIELDS,
  ADDRESS_KINDS,
  columnOfKey,
  ITEM_FIELDS,
  ORDER_FIELDS,
  SHOPIFY_ORDER_EXPORT_COLUMNS,
  shopifyDateFromIso,
} from './orders-columns.js';

/**
 * Orders as Shopify's order CSV export (orders-columns.ts): a row per cart item, the order's fields on the
 * first, `Name` and `Email` on every row; each customFields key back in its column and row, and a column
 * per key that names none of Shopify's. orders.ts reads it back into the same order.
 */

/** The header row: Shopify's columns, then one per column the store's customFields keys name beyond them. */
export function shopifyOrderColumns(customFieldKeys: Iterable<string>): string[] {
  const named = [...customFieldKeys].map((key) => columnOfKey(key).column);
  return [...SHOPIFY_ORDER_EXPORT_COLUMNS, ...extraColumns(named, SHOPIFY_ORDER_EXPORT_COLUMNS)];
}

/** A row's cells by column (lower case); a number column's cell a number (never quoted for spreadsheets). */
type Cells = Map<string, string | number>;
const put = (cells: Cells, column: string, value: unknown) => {
  if (value !== null && value !== undefined && value !== '')
    cells.set(column.toLowerCase(), typeof value === 'number' ? value : String(value));
};

function orderCells(order: Order, cells: Cells): void {
  for (const field of ORDER_FIELDS) {
    const value = order[field.target];
    put(cells, field.header, field.target === 'createdAt' ? shopifyDateFromIso(value as string) : value);
  }
  for (const { prefix, field } of ADDRESS_KINDS) {
    const address = order[field];
    if (!address) continue;
    for (const { suffix, target } of ADDRESS_FIELDS) {
      const value = target === 'name' ? [address.firstName, address.lastName].filter(Boolean).join(' ') : address[target];
      put(cells, `${prefix} ${suffix}`, value);
    }
  }
}

/** The order's rows, cells in the order of `columns` (shopifyOrderColumns). */
export function shopifyOrderRows(order: Order, columns: readonly string[]): (string | number)[][] {
  const rows: Cells[] = order.cartItems.map(() => new Map());
  const row = (n: number) => {
    while (rows.length < n) rows.push(new Map());
    return rows[n - 1];
  };
  orderCells(order, row(1));
  order.cartItems.forEach((item, i) => {
    for (const field of ITEM_FIELDS) put(rows[i], field.header, item[field.target]);
  });
  for (const [key, value] of Object.entries(order.customFields)) {
    const { column, row: n } = columnOfKey(key);
    // `#*`: a line item cell every row has
    for (const cells of n === '*' ? rows : [row(n)]) if (!cells.has(column.toLowerCase())) put(cells, column, value);
  }
  rows.forEach((cells, i) => {
    if (i === 0) return;
    put(cells, 'Name', order.customOrderId);
    put(cells, 'Email', order.contactEmail);
  });
  return rows.map((cells) => columns.map((column) => cells.get(column.toLowerCase()) ?? ''));
}
