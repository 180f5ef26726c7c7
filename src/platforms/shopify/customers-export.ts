import type { AddressPayload } from '../../addresses/index.js';
import type { Customer } from '../../customers/index.js';
import { type CustomerTarget, SHOPIFY_CUSTOMER_EXPORT_COLUMNS, SHOPIFY_CUSTOMER_FIELDS } from './customers-columns.js';
import { customFieldsByColumn, extraColumns } from './export-columns.js';

/**
 * Customers as Shopify's current customer CSV (customers-columns.ts), one row per customer, plus
 * Storefront's `Username` column (the key its import reads first) and a column per customFields key that
 * names none of Shopify's: what customers.ts reads back into the same customer, so an export re-imports
 * with nothing changed.
 */

/** What a row is made of: the customer as GET returns it and its default address. */
export interface CustomerWithAddress {
  customer: Customer;
  address: AddressPayload | null;
}

/** column (lower case) → the field it is written from; the current generation's header of each field. */
const FIELD_OF_COLUMN = new Map(SHOPIFY_CUSTOMER_FIELDS.map((column) => [column.names[0].toLowerCase(), column.target]));

/** The header row: Shopify's columns, then one per customFields key of the store that none of them names. */
export function shopifyCustomerColumns(customFieldKeys: Iterable<string>): string[] {
  return [...SHOPIFY_CUSTOMER_EXPORT_COLUMNS, ...extraColumns(customFieldKeys, SHOPIFY_CUSTOMER_EXPORT_COLUMNS)];
}

function fieldValue({ customer, address }: CustomerWithAddress, target: CustomerTarget): string | null {
  if (target === 'tags') return customer.tags.join(', ');
  if (target.startsWith('address.'))
    return address ? (address[target.slice('address.'.length) as keyof AddressPayload] as string | null) : null;
  return customer[target as keyof Customer] as string | null;
}

/** The customer's row, cells in the order of `columns` (shopifyCustomerColumns). */
export function shopifyCustomerRow(record: CustomerWithAddress, columns: readonly string[]): (string | number)[] {
  const custom = customFieldsByColumn(record.customer.customFields);
  return columns.map((column) => {
    const target = FIELD_OF_COLUMN.get(column.toLowerCase());
    const value = target ? fieldValue(record, target) : custom.get(column.toLowerCase());
    // a number (a customFields value) is written as a number, never quoted for spreadsheets
    return value === null || value === undefined ? '' : typeof value === 'number' ? value : String(value);
  });
}
