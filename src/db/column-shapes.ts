import type { ColumnType } from 'kysely';

/**
 * What the schema cannot state, for kysely-codegen to use (scripts/db-types.ts points its overrides here):
 * the shape of the document a jsonb column holds, and the values a text column's CHECK allows. Every other
 * column's type is the migrated schema's, in schema.generated.ts.
 */

/** jsonb: parsed on the way out (both drivers), written as JSON text. */
export type JsonDocument<T> = ColumnType<T, string, string>;
/** jsonb with a default ('{}' or '[]'): optional on insert. */
export type JsonDocumentWithDefault<T> = ColumnType<T, string | undefined, string>;
/** A GENERATED ALWAYS column: computed by the database, never written by a statement. */
export type ComputedByDatabase<T> = ColumnType<T, never, never>;
/** A column a trigger keeps: an INSERT may supply it (the database checks it), no UPDATE sets it. */
export type KeptByTrigger<T> = ColumnType<T, T | undefined, never>;
/** text with a CHECK on its values and a default: optional on insert. */
export type CheckedText<T extends string> = ColumnType<T, T | undefined, T>;

/** Custom fields of products, variants, collections, customers and orders (src/shared/custom-fields.ts). */
export type CustomFieldValue = string | number | boolean;
export type CustomFields = Record<string, CustomFieldValue>;

/** products.options: an option the product comes in; its values combine into the variants. */
export interface ProductOption {
  name: string;
  values: string[];
}

/** products.return_config */
export interface ReturnConfig {
  useGlobalConfig: boolean;
  returnable: boolean;
  exchangeable: boolean;
  customReturnWindow: number | null;
}

/** collections.conditions: one rule of a smart collection. */
export interface CollectionCondition {
  field: string;
  operator: string;
  value: string;
}

/** orders.shipping_address, orders.billing_address */
export interface StoredOrderAddress {
  firstName?: string | null;
  lastName?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  country?: string | null;
  phone?: string | null;
}

/** orders.cart_items */
export interface StoredCartItem {
  productId: string;
  title: string;
  price: number;
  quantity: number;
  sku?: string | null;
  locationId?: string | null;
}

/** orders.tracking_info */
export interface StoredTrackingInfo {
  trackingNumber: string;
  shippingCarrier?: string | null;
  trackingUrl?: string | null;
}

/** orders.refund */
export interface StoredRefund {
  status?: string | null;
  adminRemark?: string | null;
}

/** orders.stock_moves: what a decrement order took from one variant or simple product (migrations/0009_order_stock.sql). */
export interface StoredStockMove {
  /** absent: the move took a simple product's totalStock (migration 0024) */
  variantId?: string;
  productId: string;
  quantity: number;
}

/** orders.inventory_behaviour (migrations/0009_order_stock.sql) */
export type InventoryBehaviour = 'bypass' | 'decrement';

/** jobs.status (migrations/0015_jobs.sql) */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** job_errors.level (migrations/0110_job_warnings.sql): a refused line, or a value changed or made up */
export type JobErrorLevel = 'error' | 'warning';

/** webhook_deliveries.status (migrations/0013_webhooks.sql) */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
