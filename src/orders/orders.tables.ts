import type { ColumnType, Generated, GeneratedAlways } from 'kysely';

/** Tables of orders (migrations/0004_customers_orders.sql). */

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** NUMERIC comes back as a string from both drivers (exact); numbers go in. */
type Numeric = ColumnType<string, number | string, number | string>;
/** jsonb: parsed on the way out, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;

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

export interface StoredCartItem {
  productId: string;
  title: string;
  price: number;
  quantity: number;
  sku?: string | null;
}

export interface StoredTrackingInfo {
  trackingNumber: string;
  shippingCarrier?: string | null;
  trackingUrl?: string | null;
}

export interface StoredRefund {
  status?: string | null;
  adminRemark?: string | null;
}

/** What a decrement order took from one variant (migrations/0009_order_stock.sql). */
export interface StoredStockMove {
  variantId: string;
  productId: string;
  quantity: number;
}

export interface OrderTable {
  store_id: string;
  id: string;
  custom_order_id: string;
  user_id: string | null;
  cart_items: Json<StoredCartItem[]>;
  shipping_address: Json<StoredOrderAddress> | null;
  billing_address: Json<StoredOrderAddress> | null;
  contact_email: string | null;
  order_status: Generated<string>;
  payment_method: string | null;
  payment_status: Generated<string>;
  sub_total: Numeric;
  shipping_charge: Numeric | null;
  tax_amount: Numeric | null;
  total_amount: Numeric;
  currency: Generated<string>;
  tracking_info: ColumnType<StoredTrackingInfo[], string | undefined, string>;
  refund: Json<StoredRefund> | null;
  shipping_first_name: GeneratedAlways<string | null>;
  shipping_last_name: GeneratedAlways<string | null>;
  billing_first_name: GeneratedAlways<string | null>;
  billing_last_name: GeneratedAlways<string | null>;
  inventory_behaviour: Generated<'bypass' | 'decrement'>;
  stock_moves: Json<StoredStockMove[]> | null;
  restocked_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface OrderTables {
  orders: OrderTable;
}
