/**
 * Shopify's order CSV export: one row per line item, the rows of an order consecutive and sharing its
 * `Name`; the first row carries the order's fields. The columns that land in a field of their own are
 * listed here, read by the import (orders.ts) and written by the export (orders-export.ts). Every other
 * non-empty cell is kept in the order's `customFields` under its header; a cell of a later row (a line
 * item's `Lineitem taxable`, `Vendor`, … or an order cell that differs from the first row's) under
 * `<header> #<n>`, n its row in the order (1 for the first), so the export puts it back in the same row.
 * A line item cell that every row of an order of several rows has, with one value, is kept once under
 * `<header> #*` (every row): a large order stays within customFields' 200 keys.
 */

export type OrderTarget =
  | 'customOrderId'
  | 'contactEmail'
  | 'paymentStatus'
  | 'orderStatus'
  | 'currency'
  | 'subTotal'
  | 'shippingCharge'
  | 'taxAmount'
  | 'totalAmount'
  | 'createdAt'
  | 'paymentMethod';

export type ItemTarget = 'quantity' | 'title' | 'price' | 'sku';

export type AddressTarget = 'name' | 'address1' | 'address2' | 'city' | 'zip' | 'state' | 'country' | 'phone';

export const ORDER_FIELDS: readonly { header: string; target: OrderTarget; number?: true }[] = [
  { header: 'Name', target: 'customOrderId' },
  { header: 'Email', target: 'contactEmail' },
  { header: 'Financial Status', target: 'paymentStatus' },
  { header: 'Fulfillment Status', target: 'orderStatus' },
  { header: 'Currency', target: 'currency' },
  { header: 'Subtotal', target: 'subTotal', number: true },
  { header: 'Shipping', target: 'shippingCharge', number: true },
  { header: 'Taxes', target: 'taxAmount', number: true },
  { header: 'Total', target: 'totalAmount', number: true },
  { header: 'Created at', target: 'createdAt' },
  { header: 'Payment Method', target: 'paymentMethod' },
];

export const ITEM_FIELDS: readonly { header: string; target: ItemTarget; number?: true }[] = [
  { header: 'Lineitem quantity', target: 'quantity', number: true },
  { header: 'Lineitem name', target: 'title' },
  { header: 'Lineitem price', target: 'price', number: true },
  { header: 'Lineitem sku', target: 'sku' },
];

/** `Billing …` and `Shipping …` columns: `Name` is the address's first and last name, split at the first space. */
export const ADDRESS_FIELDS: readonly { suffix: string; target: AddressTarget }[] = [
  { suffix: 'Name', target: 'name' },
  { suffix: 'Address1', target: 'address1' },
  { suffix: 'Address2', target: 'address2' },
  { suffix: 'City', target: 'city' },
  { suffix: 'Zip', target: 'zip' },
  { suffix: 'Province', target: 'state' },
  { suffix: 'Country', target: 'country' },
  { suffix: 'Phone', target: 'phone' },
];

export const ADDRESS_KINDS = [
  { prefix: 'Billing', field: 'billingAddress' },
  { prefix: 'Shipping', field: 'shippingAddress' },
] as const;

/** The columns of Shopify's order export, in its order. */
export const SHOPIFY_ORDER_EXPORT_COLUMNS: readonly string[] = [
  'Name',
  'Email',
  'Financial Status',
  'Paid at',
  'Fulfillment Status',
  'Fulfilled at',
  'Accepts Marketing',
  'Currency',
  'Subtotal',
  'Shipping',
  'Taxes',
  'Total',
  'Discount Code',
  'Discount Amount',
  'Shipping Method',
  'Created at',
  'Lineitem quantity',
  'Lineitem name',
  'Lineitem price',
  'Lineitem compare at price',
  'Lineitem sku',
  'Lineitem requires shipping',
  'Lineitem taxable',
  'Lineitem fulfillment status',
  ...ADDRESS_KINDS.flatMap(({ prefix }) =>
    ['Name', 'Street', 'Address1', 'Address2', 'Company', 'City', 'Zip', 'Province', 'Country', 'Phone'].map(
      (suffix) => `${prefix} ${suffix}`,
    ),
  ),
  'Notes',
  'Note Attributes',
  'Cancelled at',
  'Payment Method',
  'Payment Reference',
  'Refunded Amount',
  'Vendor',
  'Outstanding Balance',
  'Employee',
  'Location',
  'Device ID',
  'Id',
  'Tags',
  'Risk Level',
  'Source',
  'Lineitem discount',
  ...[1, 2, 3, 4, 5].flatMap((n) => [`Tax ${n} Name`, `Tax ${n} Value`]),
  'Phone',
  'Receipt Number',
  'Duties',
  'Billing Province Name',
  'Shipping Province Name',
  'Payment ID',
  'Payment Terms Name',
  'Next Payment Due At',
  'Payment References',
];

/** The headers a file must have to be read as Shopify orders. */
export const SHOPIFY_ORDER_REQUIRED = [['Name'], ['Lineitem quantity'], ['Lineitem name'], ['Lineitem price']] as const;

/** `<header> #<n>`: the key of a cell of the n-th row of an order (n from 1), as image cells are keyed; `*`: every row. */
export const rowFieldKey = (header: string, n: number | '*') => `${header} #${n}`;

/** A key read back: its column and row (row 1 for a key without a row, `*` for every row). */
export function columnOfKey(key: string): { column: string; row: number | '*' } {
  const match = /^(.*\S) #(\d+|\*)$/.exec(key);
  if (!match) return { column: key, row: 1 };
  return { column: match[1], row: match[2] === '*' ? '*' : Number(match[2]) };
}

const SHOPIFY_DATE = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|UTC|[+-]\d{2}:?\d{2})?$/i;

/**
 * Shopify's `2026-09-03 10:15:00 -0400` as an ISO date-time (`2026-09-03T10:15:00-04:00`); a time without
 * an offset is UTC; anything else is left as it is (the order's checks then name the cell).
 */
export function isoFromShopifyDate(cell: string): string {
  const match = SHOPIFY_DATE.exec(cell.trim());
  if (!match) return cell;
  const [, date, time, zone] = match;
  const seconds = time.length === 5 ? `${time}:00` : time;
  const offset = !zone || /^(z|utc)$/i.test(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  return `${date}T${seconds}${offset}`;
}

/** An ISO date-time written as Shopify writes dates: `2026-09-03 14:15:00 +0000` (UTC). */
export function shopifyDateFromIso(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} +0000`;
}
