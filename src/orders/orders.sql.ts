import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { iso, numberOrNull } from '../shared/envelope.js';
import { ilikeAny, type ListSpec } from '../shared/list.js';
import { CartItem, type Order, OrderAddress, Refund, TrackingInfo } from './orders.schema.js';
import type { OrderTable } from './orders.tables.js';

export const COLUMNS = [
  'id',
  'custom_order_id',
  'user_id',
  'cart_items',
  'shipping_address',
  'billing_address',
  'contact_email',
  'order_status',
  'payment_method',
  'payment_status',
  'sub_total',
  'shipping_charge',
  'tax_amount',
  'total_amount',
  'currency',
  'tracking_info',
  'refund',
  'created_at',
  'updated_at',
] as const;
type Row = Pick<Selectable<OrderTable>, (typeof COLUMNS)[number]>;

export const listSpec: ListSpec = {
  sorts: { createdAt: sql`created_at`, totalAmount: sql`total_amount` },
  idColumn: sql`id`,
  // The address names are generated columns of the jsonb addresses, each with a trigram index.
  search: ilikeAny([
    'custom_order_id',
    'contact_email',
    'shipping_first_name',
    'shipping_last_name',
    'billing_first_name',
    'billing_last_name',
  ]),
};

type Shape = { properties: Record<string, unknown> };

/** Exactly the shape's fields, each present: null when unset (unknown stored keys are not echoed). */
function complete<T>(shape: Shape, value: object): T {
  const source = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(shape.properties).map((key) => [key, source[key] ?? null])) as T;
}

export const completeAddress = (value: object | null | undefined) => (value ? complete<OrderAddress>(OrderAddress, value) : null);
export const completeCartItem = (value: object) => complete<CartItem>(CartItem, value);
export const completeTracking = (value: object) => complete<TrackingInfo>(TrackingInfo, value);
export const completeRefund = (value: object | null | undefined) => (value ? complete<Refund>(Refund, value) : null);

export function toOrderOutput(row: Row): Order {
  return {
    id: row.id,
    customOrderId: row.custom_order_id,
    userId: row.user_id,
    cartItems: row.cart_items.map(completeCartItem),
    shippingAddress: completeAddress(row.shipping_address),
    billingAddress: completeAddress(row.billing_address),
    contactEmail: row.contact_email,
    orderStatus: row.order_status,
    paymentMethod: row.payment_method,
    paymentStatus: row.payment_status,
    // NUMERIC arrives as exact decimal text; Number() of it prints back the same digits.
    subTotal: Number(row.sub_total),
    shippingCharge: numberOrNull(row.shipping_charge),
    taxAmount: numberOrNull(row.tax_amount),
    totalAmount: Number(row.total_amount),
    currency: row.currency,
    trackingInfo: row.tracking_info.map(completeTracking),
    refund: completeRefund(row.refund),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function selectOrders(db: Db, storeId: string) {
  return db.selectFrom('orders').select(COLUMNS).where('store_id', '=', storeId);
}
