/**
 * Shopify's customer CSV: the columns that land in a field of their own, read by the import (customers.ts)
 * and written by the export (customers-export.ts). Shopify has used two header generations: the current
 * one names the default address's cells `Default Address …`, the older one `Company`, `Address1`, `City`,
 * `Province Code`, … without the prefix. `Tags` (comma-separated) lands in the customer's `tags`. Every other
 * column (Customer ID, Accepts Email Marketing, Total Spent, Total Orders, Note, Tax Exempt, metafields, …) is a `customFields` column: its non-empty
 * cell is kept under its header as written in the file, and the export writes each key back to the column
 * of that name, so an export re-imports with nothing changed.
 */

/** Where a field column lands: a customer field, or a field of its default address (`address.<field>`). */
export type CustomerTarget =
  | 'userName'
  | 'firstName'
  | 'lastName'
  | 'email'
  | 'phoneNumber'
  | 'businessName'
  | 'tags'
  | 'address.street'
  | 'address.house'
  | 'address.city'
  | 'address.stateName'
  | 'address.countryName'
  | 'address.pincode'
  | 'address.phone';

export interface ShopifyCustomerColumn {
  target: CustomerTarget;
  /** the header in the current generation, then the older one's when it differs */
  names: readonly string[];
}

/** The field columns. `Username` is Storefront's own (its export adds it): the key when present. */
export const SHOPIFY_CUSTOMER_FIELDS: readonly ShopifyCustomerColumn[] = [
  { target: 'userName', names: ['Username'] },
  { target: 'firstName', names: ['First Name'] },
  { target: 'lastName', names: ['Last Name'] },
  { target: 'email', names: ['Email'] },
  { target: 'phoneNumber', names: ['Phone'] },
  { target: 'businessName', names: ['Default Address Company', 'Company'] },
  { target: 'tags', names: ['Tags'] },
  { target: 'address.street', names: ['Default Address Address1', 'Address1'] },
  { target: 'address.house', names: ['Default Address Address2', 'Address2'] },
  { target: 'address.city', names: ['Default Address City', 'City'] },
  { target: 'address.stateName', names: ['Default Address Province Code', 'Province Code'] },
  { target: 'address.countryName', names: ['Default Address Country Code', 'Country Code'] },
  { target: 'address.pincode', names: ['Default Address Zip', 'Zip'] },
  { target: 'address.phone', names: ['Default Address Phone'] },
];

/** The columns of Shopify's current customer export, in its order, then Storefront's `Username`. */
export const SHOPIFY_CUSTOMER_EXPORT_COLUMNS: readonly string[] = [
  'Customer ID',
  'First Name',
  'Last Name',
  'Email',
  'Accepts Email Marketing',
  'Default Address Company',
  'Default Address Address1',
  'Default Address Address2',
  'Default Address City',
  'Default Address Province Code',
  'Default Address Country Code',
  'Default Address Zip',
  'Default Address Phone',
  'Phone',
  'Accepts SMS Marketing',
  'Total Spent',
  'Total Orders',
  'Note',
  'Tax Exempt',
  'Tags',
  'Username',
];

/** The headers a file must have to be read as Shopify customers (both generations have them). */
export const SHOPIFY_CUSTOMER_REQUIRED = [['First Name'], ['Last Name'], ['Email']] as const;
