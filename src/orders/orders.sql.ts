import { type Insertable, type Selectable, sql, type UpdateObject } from 'kysely';
import type { DB, Db, StoredStockMove } from '../db/index.js';
import { ilikeAny, type ListSpec } from '../reads/index.js';
import { customFieldsOutput, iso, isoOrNull, numberOrNull } from '../shared/index.js';
import {
  CartItem,
  type ORDER_SORTS,
  type Order,
  OrderAddress,
  type OrderListQuery,
  Refund,
  TrackingInfo,
  type UpdateOrderInput,
} from './orders.schema.js';

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
  'inventory_behaviour',
  'restocked_at',
  'custom_fields',
  'created_at',
  'updated_at',
] as const;
export type OrderRow = Pick<Selectable<DB['orders']>, (typeof COLUMNS)[number]>;

export const listSpec: ListSpec<typeof ORDER_SORTS> = {
  path: '/orders',
  sorts: { createdAt: sql`created_at`, updatedAt: sql`updated_at`, totalAmount: sql`total_amount` },
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

export function toOrderOutput(row: OrderRow): Order {
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
    inventoryBehaviour: row.inventory_behaviour,
    restockedAt: isoOrNull(row.restocked_at),
    customFields: customFieldsOutput(row.custom_fields),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function selectOrders(db: Db, storeId: string) {
  return db.selectFrom('orders').select(COLUMNS).where('store_id', '=', storeId);
}

/** GET /orders before its page: the store's orders, filtered by orderStatus, paymentStatus and customer when given. */
export function selectOrderList(db: Db, storeId: string, query: Pick<OrderListQuery, 'status' | 'paymentStatus' | 'userId'>) {
  let base = selectOrders(db, storeId);
  if (query.status !== undefined) base = base.where('order_status', '=', query.status);
  if (query.paymentStatus !== undefined) base = base.where('payment_status', '=', query.paymentStatus);
  if (query.userId !== undefined) base = base.where('user_id', '=', query.userId);
  return base;
}

export function findOrderRow(db: Db, storeId: string, id: string): Promise<OrderRow | undefined> {
  return selectOrders(db, storeId).where('id', '=', id).executeTakeFirst();
}

/** A taken number fails with 23505 on orders_custom_order_id_key (the unique index decides, also under concurrency). */
export function insertOrder(db: Db, values: Insertable<DB['orders']>): Promise<OrderRow> {
  return db.insertInto('orders').values(values).returning(COLUMNS).executeTakeFirstOrThrow();
}

/** undefined when the number is taken: ON CONFLICT skips it without aborting the transaction. */
export function insertOrderUnlessNumberTaken(db: Db, values: Insertable<DB['orders']>): Promise<OrderRow | undefined> {
  return db
    .insertInto('orders')
    .values(values)
    .onConflict((conflict) => conflict.doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
}

const json = (value: unknown) => JSON.stringify(value);

/** trackingInfo replaces the list; refund is merged field by field in SQL, so concurrent merges never lose a field. */
function toOrderChanges(input: UpdateOrderInput, now: Date, restocked: boolean, customFields?: string): UpdateObject<DB, 'orders'> {
  const changes: UpdateObject<DB, 'orders'> = { updated_at: now };
  if (customFields !== undefined) changes.custom_fields = customFields;
  if (restocked) changes.restocked_at = now;
  if (input.orderStatus !== undefined) changes.order_status = input.orderStatus.trim();
  if (input.paymentStatus !== undefined) changes.payment_status = input.paymentStatus.trim();
  if (input.trackingInfo !== undefined) changes.tracking_info = json(input.trackingInfo.map(completeTracking));
  if (input.refund === null) changes.refund = null;
  // An empty refund object says nothing: it neither creates nor changes a refund.
  else if (input.refund && Object.keys(input.refund).length > 0) {
    changes.refund = sql`coalesce(refund, '{}'::jsonb) || ${json(input.refund)}::jsonb`;
  }
  return changes;
}

/**
 * `restocked`: this change put the order's stock back (restockedAt becomes `now`); `customFields`: the
 * merged custom fields as JSON, when the input names some.
 */
export function updateOrderRow(
  db: Db,
  storeId: string,
  id: string,
  input: UpdateOrderInput,
  now: Date,
  restocked = false,
  customFields?: string,
): Promise<OrderRow | undefined> {
  return db
    .updateTable('orders')
    .set(toOrderChanges(input, now, restocked, customFields))
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
}

/**
 * What a decrement order took, locked FOR UPDATE, when it has not been restocked yet; undefined
 * otherwise (a bypass order, a second restock, no such order). A concurrent restock of the same order
 * waits here, then finds restocked_at set: stock goes back once.
 */
export async function lockUnrestockedMoves(db: Db, storeId: string, id: string): Promise<StoredStockMove[] | undefined> {
  const row = await db
    .selectFrom('orders')
    .select('stock_moves')
    .where('store_id', '=', storeId)
    .where('id', '=', id)
    .where('inventory_behaviour', '=', 'decrement')
    .where('restocked_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
  return row?.stock_moves ?? undefined;
}

/**
 * A deleted customer's orders stay, without the customer: userId becomes null and, as their
 * representation changed, updatedAt moves (the foreign key's SET NULL would not move it).
 */
export async function unsetOrdersCustomer(db: Db, storeId: string, customerId: string): Promise<string[]> {
  const rows = await db
    .updateTable('orders')
    .set({ user_id: null, updated_at: new Date() })
    .where('store_id', '=', storeId)
    .where('user_id', '=', customerId)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** The store's order numbered `customOrderId` (case-insensitive, as the unique index compares), row locked: an import line's key. */
export function lockOrderByNumber(db: Db, storeId: string, customOrderId: string): Promise<OrderRow | undefined> {
  return selectOrders(db, storeId).where(sql`lower(custom_order_id)`, '=', sql`lower(${customOrderId})`).forUpdate().executeTakeFirst();
}

/**
 * The store's customers of these emails, compared case-insensitively as their uniqueness is (one customer
 * per lower-cased email): lower-cased email → id. One statement for a whole import batch of orders.
 */
export async function customerIdsByEmail(db: Db, storeId: string, emails: readonly string[]): Promise<Map<string, string>> {
  const lowered = [...new Set(emails.map((email) => email.toLowerCase()))];
  if (lowered.length === 0) return new Map();
  const rows = await db
    .selectFrom('customers')
    .select(['id', sql<string>`lower(email)`.as('email')])
    .where('store_id', '=', storeId)
    .where(sql`lower(email)`, 'in', lowered)
    .execute();
  return new Map(rows.map((row) => [row.email, row.id]));
}
